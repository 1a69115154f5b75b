import Foundation

/// A plain TCP connection to 127.0.0.1, for tests that must behave as no
/// HTTP library would: stay idle, send half a header, never answer a close
/// frame. Every read is bounded by `timeout`.
public final class RawConnection: @unchecked Sendable {
    public struct Failed: Error { public var what: String }

    public let fd: Int32

    public init(port: Int, timeout: TimeInterval = 10) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failed(what: "socket: errno \(errno)") }
        var time = timeval(tv_sec: Int(timeout), tv_usec: __suseconds_t((timeout - timeout.rounded(.down)) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw Failed(what: "connect: errno \(errno)")
        }
    }

    deinit { close(fd) }

    public func send(_ text: String) throws {
        try send(bytes: Array(text.utf8))
    }

    public func send(bytes: [UInt8]) throws {
        guard Foundation.send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else {
            throw Failed(what: "send: errno \(errno)")
        }
    }

    public enum Read: Equatable {
        case bytes([UInt8])
        /// The server closed the connection (or reset it).
        case closed
        /// Nothing within the timeout.
        case timedOut
    }

    public func read() -> Read {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = recv(fd, &buffer, buffer.count, 0)
        if count > 0 { return .bytes(Array(buffer[..<count])) }
        if count == 0 || errno == ECONNRESET { return .closed }
        return .timedOut
    }

    /// Everything until the server closes the connection; nil if it did not
    /// within the timeout.
    public func readUntilClosed() -> [UInt8]? {
        var received: [UInt8] = []
        while received.count < 1 << 20 {
            switch read() {
            case .bytes(let bytes): received += bytes
            case .closed: return received
            case .timedOut: return nil
            }
        }
        return nil
    }

    /// A client's WebSocket frame (masked, with a zero key, which RFC 6455 allows).
    public static func frame(opcode: UInt8, fin: Bool = true, _ payload: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        if payload.count < 126 {
            bytes.append(0x80 | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            bytes += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            bytes.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((payload.count >> shift) & 0xFF)) }
        }
        return bytes + [0, 0, 0, 0] + payload
    }

    /// Upgrades to a WebSocket at `path` and reads until the first text
    /// frame (the hello); the bytes read so far, nil if it did not get there.
    public func upgrade(_ path: String, port: Int) throws -> [UInt8]? {
        try sendUpgrade(path, port: port)
        var received: [UInt8] = []
        while !String(decoding: received, as: UTF8.self).contains("\"event\"") {
            guard case .bytes(let bytes) = read() else { return nil }
            received += bytes
        }
        return received
    }

    public func sendUpgrade(_ path: String, port: Int) throws {
        try send(
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: Upgrade\r\n"
                + "Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
        )
    }

    /// After a close frame from the server: its code, read from the bytes
    /// until the connection ends (nil if none came).
    /// `already`: bytes read before (the upgrade's, which may hold the close frame).
    public func closeCode(already: [UInt8] = []) -> Int? {
        guard let rest = readUntilClosed() else { return nil }
        // After the HTTP head, if it is there (frames follow it; the hello's JSON holds no 0x88).
        var bytes = already + rest
        if let end = (0..<max(0, bytes.count - 3)).first(where: { Array(bytes[$0..<$0 + 4]) == [13, 10, 13, 10] }) {
            bytes = Array(bytes[(end + 4)...])
        }
        // Server frames are unmasked: 0x88, a 7-bit length, then the code.
        guard let start = bytes.firstIndex(of: 0x88), start + 3 < bytes.count else { return nil }
        return Int(bytes[start + 2]) << 8 | Int(bytes[start + 3])
    }
}

/// Runs blocking socket calls on a thread of their own: on the concurrency
/// pool (2 threads on a 2-core machine) they would starve the in-process
/// server they are talking to.
public func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
