import Foundation
import SwipeCore
import SwipeSQLite
import SwipeServer
import SwipeStore

/// Photos (Documentation/Photos.md, `make bench BENCH_ONLY=photos`): a 2 MB
/// JPEG with EXIF (GPS) stored (checked, stripped, hashed, inserted and
/// committed, in this process, on SQLite), served (a GET of /photos/ID
/// from `swipe serve`, sign-in checked, the bytes read from the database
/// and sent) and uploaded (a POST /photos to `swipe serve`, as the page
/// sends it), each beside writing or reading the same bytes as a plain
/// file. Memory: this process's peak RSS growth while storing, and the
/// server's peak RSS (VmHWM) after serving.
struct PhotoBench {
    let swipe: String
    let directory: String
    let runs: Int
    var requestsPerRun = 20

    func run() throws -> [ReportRow] {
        let folder = directory + "/photo-bench"
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let jpeg = Self.jpeg(bytes: 2 * 1024 * 1024)
        log("photos: a \(megabytes(jpeg.count)) JPEG stored and served …")
        let database = folder + "/photos.sqlite"
        let store = try SQLiteStore(path: database)
        try store.upsert(Profile(id: "ana", name: "Ana", age: 30))
        try store.upsert(Profile(id: "bo", name: "Bo", age: 30))
        let rssBefore = Self.peakResidentBytes()
        let raw = folder + "/raw.jpg"

        // Stored: check + strip + hash + insert + commit, then removed again
        // (so each run adds the same photo anew).
        let stored = try Alternation.run(
            runs: runs,
            [
                {
                    var samples = Samples()
                    for _ in 0..<5 {
                        samples.append(
                            try Clock.time {
                                _ = try store.addPhoto(viewer: "ana", .bytes(try PhotoBytes(checking: jpeg)), at: nil)
                            })
                        try store.removePhoto(viewer: "ana", position: 1)
                    }
                    return samples
                },
                {
                    var samples = Samples()
                    for _ in 0..<5 {
                        samples.append(
                            try Clock.time {
                                guard FileManager.default.createFile(atPath: raw, contents: Data(jpeg)) else {
                                    throw BenchError("cannot write \(raw)")
                                }
                            })
                    }
                    return samples
                },
            ])
        let storeGrowth = Self.peakResidentBytes() - rssBefore

        let profile = try store.addPhoto(viewer: "ana", .bytes(try PhotoBytes(checking: jpeg)), at: nil)
        let path = profile.photos[0]
        let tokens = AccessTokens(secret: try store.accessSecret(create: true) ?? "")
        let cookie = "swipe_token=" + tokens.issue(viewer: "bo", expiry: Date().addingTimeInterval(3600))
        let server = try ServedProcess(swipe: swipe, database: database)
        defer { server.stop() }
        var servedBytes = 0
        let served = try Alternation.run(
            runs: runs,
            [
                {
                    var samples = Samples()
                    for _ in 0..<requestsPerRun {
                        samples.append(
                            try Clock.time { servedBytes = try Self.get(path, port: server.port, cookie: cookie) })
                    }
                    return samples
                },
                {
                    var samples = Samples()
                    for _ in 0..<requestsPerRun {
                        samples.append(try Clock.time { _ = try Data(contentsOf: URL(fileURLWithPath: raw)) })
                    }
                    return samples
                },
            ])
        let stripped = try PhotoBytes(checking: jpeg).bytes.count
        guard servedBytes == stripped else {
            throw BenchError("served \(servedBytes) bytes, stored \(stripped)")
        }
        let servedRSS = server.peakResidentBytes() ?? 0

        // Uploaded: POST /photos from the page's origin, bo signed in (body
        // read, checked, stripped, hashed, inserted, committed, answered),
        // then removed again untimed, so each upload adds the photo anew.
        let uploads = try Alternation.run(
            runs: runs,
            [
                {
                    var samples = Samples()
                    for _ in 0..<5 {
                        samples.append(try Clock.time { try Self.upload(jpeg, port: server.port, cookie: cookie) })
                        try store.removePhoto(viewer: "bo", position: 1)
                    }
                    return samples
                },
                {
                    var samples = Samples()
                    for _ in 0..<5 {
                        samples.append(
                            try Clock.time {
                                guard FileManager.default.createFile(atPath: raw, contents: Data(jpeg)) else {
                                    throw BenchError("cannot write \(raw)")
                                }
                            })
                    }
                    return samples
                },
            ])
        let storedTime = stored[0].medianOfMedians, writeTime = stored[1].medianOfMedians
        let servedTime = served[0].medianOfMedians, readTime = served[1].medianOfMedians
        return [
            ReportRow(
                benchmark:
                    "photo stored: \(megabytes(jpeg.count)) JPEG checked, EXIF stripped, hashed, inserted (SQLite, p50)",
                swipe: duration(storedTime) + ", peak RSS +" + megabytes(max(0, storeGrowth)),
                baseline: duration(writeTime) + " (writing the file)", ratio: storedTime / writeTime),
            ReportRow(
                benchmark:
                    "photo served: GET /photos/ID from swipe serve, signed in (p50; p99 \(duration(served[0].pooled.quantile(0.99))))",
                swipe: duration(servedTime) + ", server peak RSS " + megabytes(servedRSS),
                baseline: duration(readTime) + " (reading the file)", ratio: servedTime / readTime),
            ReportRow(
                benchmark:
                    "photo uploaded: POST /photos of \(megabytes(jpeg.count)) JPEG to swipe serve, signed in, stored (p50; p99 \(duration(uploads[0].pooled.quantile(0.99))))",
                swipe: duration(uploads[0].medianOfMedians) + ", server peak RSS "
                    + megabytes(server.peakResidentBytes() ?? 0),
                baseline: duration(uploads[1].medianOfMedians) + " (writing the file)",
                ratio: uploads[0].medianOfMedians / uploads[1].medianOfMedians),
        ]
    }

    /// ru_maxrss of this process, in bytes.
    static func peakResidentBytes() -> Int {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_maxrss * 1024
    }

    /// One GET over a fresh TCP connection; the body's length (the status must be 200).
    static func get(_ path: String, port: Int, cookie: String) throws -> Int {
        let descriptor = try connectLoopback(port: port)
        defer { close(descriptor) }
        let request = Array(
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: \(cookie)\r\nConnection: close\r\n\r\n".utf8)
        guard write(descriptor, request, request.count) == request.count else { throw BenchError("write: \(errno)") }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count <= 0 { break }
            response += buffer[0..<count]
        }
        guard let end = response.firstRange(of: Array("\r\n\r\n".utf8)) else { throw BenchError("no response head") }
        let head = String(decoding: response[..<end.lowerBound], as: UTF8.self)
        guard head.hasPrefix("HTTP/1.1 200") else { throw BenchError("GET \(path): \(head)") }
        return response.count - end.upperBound
    }

    /// One upload (`POST /photos`, the page's Origin) over a fresh TCP
    /// connection; the status must be 201.
    static func upload(_ body: [UInt8], port: Int, cookie: String) throws {
        let descriptor = try connectLoopback(port: port)
        defer { close(descriptor) }
        let head = Array(
            ("POST /photos?name=bench.jpg HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nOrigin: http://127.0.0.1:\(port)\r\n"
                + "Cookie: \(cookie)\r\nContent-Type: image/jpeg\r\nContent-Length: \(body.count)\r\n"
                + "Connection: close\r\n\r\n").utf8)
        for part in [head, body] {
            var sent = 0
            while sent < part.count {
                let count = part[sent...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                guard count > 0 else { throw BenchError("write: \(errno)") }
                sent += count
            }
        }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count <= 0 { break }
            response += buffer[0..<count]
        }
        let status = String(decoding: response.prefix(32), as: UTF8.self)
        guard status.hasPrefix("HTTP/1.1 201") else {
            throw BenchError("POST /photos: \(String(decoding: response.prefix(400), as: UTF8.self))")
        }
    }

    /// A baseline JPEG of about `bytes` bytes (DC-only 8×8 blocks of random
    /// greys, which no entropy coder shrinks) after an EXIF block with GPS tags.
    static func jpeg(bytes: Int) -> [UInt8] {
        var random = SplitMix64(seed: 2)
        func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
            [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        }
        let exif: [UInt8] =
            Array("Exif\0\0MM\0*".utf8) + [0, 0, 0, 8, 0, 1, 0x88, 0x25, 0, 4, 0, 0, 0, 1, 0, 0, 0, 26, 0, 0, 0, 0]
            + [0, 1, 0, 2, 0, 5, 0, 0, 0, 3, 0, 0, 0, 44, 0, 0, 0, 0] + [
                0, 0, 0, 48, 0, 0, 0, 1, 0, 0, 0, 51, 0, 0, 0, 1,
            ]
            + [0, 0, 11, 143, 0, 0, 0, 100]
        let counts: [UInt8] = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0]
        var codes: [(Int, Int)] = []
        var code = 0
        for (index, count) in counts.enumerated() {
            for _ in 0..<count { codes.append((code, index + 1)); code += 1 }
            code <<= 1
        }
        var scan: [UInt8] = []
        var accumulator = 0, filled = 0, blocks = 0, previous = 0
        func put(_ value: Int, _ length: Int) {
            accumulator = accumulator << length | (value & ((1 << length) - 1))
            filled += length
            while filled >= 8 {
                let byte = UInt8((accumulator >> (filled - 8)) & 0xFF)
                scan.append(byte)
                if byte == 0xFF { scan.append(0) }
                filled -= 8
            }
        }
        while scan.count < bytes - 700 || blocks % 1024 != 0 {
            let dc = (Int(random.next() % 256) - 128) * 8
            let diff = dc - previous
            previous = dc
            let category = diff == 0 ? 0 : Int.bitWidth - abs(diff).leadingZeroBitCount
            put(codes[category].0, codes[category].1)
            if category > 0 { put(diff > 0 ? diff : diff - 1 + (1 << category), category) }
            put(0, 1)
            blocks += 1
        }
        if filled > 0 { put((1 << (8 - filled)) - 1, 8 - filled) }
        let width = 8192, height = blocks / 1024 * 8
        return [0xFF, 0xD8] + segment(0xE0, Array("JFIF\0".utf8) + [1, 1, 0, 0, 1, 0, 1, 0, 0])
            + segment(0xE1, exif) + segment(0xDB, [0] + Array(repeating: 1, count: 64))
            + segment(
                0xC0,
                [8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 1, 1, 0x11, 0])
            + segment(0xC4, [0x00] + counts + Array(0...11))
            + segment(0xC4, [0x10, 1] + Array(repeating: 0, count: 15) + [0])
            + segment(0xDA, [1, 1, 0, 0, 63, 0]) + scan + [0xFF, 0xD9]
    }
}

extension ServedProcess {
    /// VmHWM (peak RSS) of the server, from /proc.
    func peakResidentBytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
        else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }.map { $0 * 1024 }
        }
        return nil
    }
}
