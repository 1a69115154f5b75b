import Foundation

/// A TCP port on 127.0.0.1 that nothing listens on right now (bound to
/// port 0 and closed again): where a test needs a server that is not there.
public func unusedLocalPort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            _ = bind(fd, $0, length)
            _ = getsockname(fd, $0, &length)
        }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}
