import Foundation

/// The serve rows' load: every socket of a run driven from one thread with
/// `poll(2)`, speaking just enough WebSocket (RFC 6455) to send masked text
/// frames and read the server's.
///
/// The client shares a 2-core machine with the server it measures. Through
/// a WebSocket client on Swift concurrency, 200 sockets cost a quarter of
/// the machine, and each answer's time included the client's own wake-up
/// on its thread pool. Here a socket costs a read and a write per command,
/// and an answer's time is taken when its last byte has been read.
struct SocketLoad {
    let port: Int
    let script: [String]
    /// Pause before each command (0: send as soon as the answer is in).
    let pacing: Double
    /// How long to wait for anything before giving up on the run.
    var timeout = 120.0

    struct Session {
        var token: String
        /// Before its first command (a staggered start).
        var delay: Double
    }

    /// One answer: which command, how long it took, its UTF-8 as received.
    struct Answer {
        var line: String
        var seconds: Double
        var bytes: [UInt8]
    }

    /// Connects every session (`connectSpacing` apart), waits for every
    /// `hello`, calls `opened` once all are in, then runs every script;
    /// each session's answers in order, with the first command's send time
    /// and the last answer's time.
    func run(
        _ sessions: [Session], connectSpacing: Double, opened: () -> Void
    ) throws -> [(answers: [Answer], start: Double, end: Double)] {
        var sockets: [Socket] = []
        defer { for socket in sockets { close(socket.fd) } }
        for (index, session) in sessions.enumerated() {
            if index > 0 { usleep(UInt32(connectSpacing * 1e6)) }
            sockets.append(try Socket(port: port, token: session.token, delay: session.delay))
        }
        let deadline = Clock.now() + timeout
        // Every socket's upgrade and hello first: nothing is timed yet.
        try pump(&sockets, until: deadline) { $0.helloSeen }
        opened()
        let began = Clock.now()
        for index in sockets.indices { sockets[index].nextSend = began + sockets[index].delay + pacing }
        try pump(&sockets, until: deadline + timeout) { $0.answers.count == script.count }
        return sockets.map { ($0.answers, $0.firstSend ?? began, $0.lastAnswer ?? began) }
    }

    /// Polls every socket, sending each its next command when due and
    /// reading answers, until `done` holds for every socket.
    private func pump(_ sockets: inout [Socket], until deadline: Double, done: (Socket) -> Bool) throws {
        var fds = sockets.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
        var scratch = [UInt8](repeating: 0, count: 65_536)
        while !sockets.allSatisfy(done) {
            let now = Clock.now()
            guard now < deadline else { throw BenchError("serve: sockets still waiting after \(Int(timeout)) s") }
            var wait = deadline - now
            for index in sockets.indices where sockets[index].helloSeen && !done(sockets[index]) {
                guard sockets[index].awaiting == nil, let due = sockets[index].nextSend else { continue }
                if due <= now {
                    try sockets[index].send(script[sockets[index].answers.count])
                } else {
                    wait = min(wait, due - now)
                }
            }
            // Rounded up: a pause shorter than a millisecond is slept through,
            // not spun through with poll(…, 0). A command may go out up to a
            // millisecond after its pause; its time is taken from when it does.
            let ready = poll(&fds, nfds_t(fds.count), Int32((max(0, min(wait, 1)) * 1000).rounded(.up)))
            if ready < 0, errno != EINTR { throw BenchError("poll: \(String(cString: strerror(errno)))") }
            guard ready > 0 else { continue }
            for index in fds.indices where fds[index].revents != 0 {
                fds[index].revents = 0
                try sockets[index].readAvailable(pacing: pacing, into: &scratch)
            }
        }
    }

    /// One client socket and where its script stands.
    struct Socket {
        let fd: Int32
        let delay: Double
        var received: [UInt8] = []
        var upgraded = false
        var helloSeen = false
        var nextSend: Double?
        /// The command sent and when, until its answer is in.
        var awaiting: (line: String, at: Double)?
        var answers: [Answer] = []
        var firstSend: Double?
        var lastAnswer: Double?

        init(port: Int, token: String, delay: Double) throws {
            fd = try connectLoopback(port: port)
            self.delay = delay
            var one: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            let request =
                "GET /ws?token=\(token) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\n"
                + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                + "Sec-WebSocket-Version: 13\r\n\r\n"
            try writeAll(Array(request.utf8))
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }

        /// Sends `line` as one masked text frame.
        mutating func send(_ line: String) throws {
            let payload = Array(line.utf8)
            var frame: [UInt8] = [0x81]
            if payload.count < 126 {
                frame.append(0x80 | UInt8(payload.count))
            } else {
                frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
            }
            let mask: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
            frame += mask
            for (index, byte) in payload.enumerated() { frame.append(byte ^ mask[index % 4]) }
            let now = Clock.now()
            if firstSend == nil { firstSend = now }
            awaiting = (line, now)
            nextSend = nil
            try writeAll(frame)
        }

        private func writeAll(_ bytes: [UInt8]) throws {
            var written = 0
            while written < bytes.count {
                let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, bytes.count - written) }
                if count < 0 {
                    if errno == EINTR { continue }
                    if errno == EAGAIN {
                        var pending = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                        _ = poll(&pending, 1, 1000)
                        continue
                    }
                    throw BenchError("write: \(String(cString: strerror(errno)))")
                }
                written += count
            }
        }

        /// Reads what has arrived and handles every whole frame in it.
        mutating func readAvailable(pacing: Double, into chunk: inout [UInt8]) throws {
            while true {
                let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
                if count < 0 {
                    if errno == EINTR { continue }
                    if errno == EAGAIN { break }
                    throw BenchError("read: \(String(cString: strerror(errno)))")
                }
                if count == 0 { throw BenchError("serve closed a socket mid-script") }
                received += chunk[0..<count]
                if count < chunk.count { break }
            }
            let now = Clock.now()
            if !upgraded {
                guard let end = Self.headerEnd(received) else { return }
                let head = String(decoding: received[0..<end], as: UTF8.self)
                guard head.hasPrefix("HTTP/1.1 101") else {
                    throw BenchError("serve refused the upgrade: \(head.prefix(80).debugDescription)")
                }
                received.removeFirst(end)
                upgraded = true
            }
            while let (first, payload, length) = Self.frame(in: received) {
                received.removeFirst(length)
                // The server writes each answer as one frame; a fragment would be read as a whole answer.
                guard first & 0x80 != 0 else { throw BenchError("serve sent a fragmented message") }
                switch first & 0x0F {
                case 0x1:
                    if !helloSeen {
                        helloSeen = true
                    } else if !payload.starts(with: Self.eventPrefix), let (line, at) = awaiting {
                        answers.append(Answer(line: line, seconds: now - at, bytes: Array(payload)))
                        awaiting = nil
                        lastAnswer = now
                        nextSend = now + pacing
                    }
                case 0x8:
                    throw BenchError("serve closed a socket: \(String(decoding: payload.dropFirst(2), as: UTF8.self))")
                default: break  // pings and pongs: the server sends none it needs answered in a run
                }
            }
        }

        /// How a pushed event starts (a match, a message): not the answer awaited.
        static let eventPrefix = Array(#"{"event""#.utf8)

        /// The index just past the first `\r\n\r\n`.
        static func headerEnd(_ bytes: [UInt8]) -> Int? {
            guard bytes.count >= 4 else { return nil }
            for index in 3..<bytes.count
            where bytes[index] == 0x0A && bytes[index - 1] == 0x0D && bytes[index - 2] == 0x0A
                && bytes[index - 3] == 0x0D
            {
                return index + 1
            }
            return nil
        }

        /// The first whole unmasked frame: its first byte (FIN and opcode),
        /// payload and length in bytes.
        static func frame(in bytes: [UInt8]) -> (UInt8, ArraySlice<UInt8>, Int)? {
            guard bytes.count >= 2 else { return nil }
            let first = bytes[0]
            var length = Int(bytes[1] & 0x7F)
            var offset = 2
            if length == 126 {
                guard bytes.count >= 4 else { return nil }
                length = Int(bytes[2]) << 8 | Int(bytes[3])
                offset = 4
            } else if length == 127 {
                guard bytes.count >= 10 else { return nil }
                length = bytes[2..<10].reduce(0) { $0 << 8 | Int($1) }
                offset = 10
            }
            guard bytes.count >= offset + length else { return nil }
            return (first, bytes[offset..<offset + length], offset + length)
        }
    }
}
