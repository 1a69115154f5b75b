import Foundation

/// A fresh folder for one test, removed when the value is dropped. Suites
/// keep one as a stored property: Swift Testing makes a new suite instance,
/// and so a new folder, for every test.
public final class TemporaryFolder: Sendable {
    public let path: String

    /// A folder named `prefix-UUID` in the system's temporary directory.
    public init(_ prefix: String = "swipe-tests") {
        path = NSTemporaryDirectory() + prefix + "-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Writes `text` to `name` in the folder and returns its path.
    @discardableResult
    public func file(_ name: String, _ text: String) -> String {
        file(name, Array(text.utf8))
    }

    /// Writes `bytes` to `name` in the folder and returns its path.
    @discardableResult
    public func file(_ name: String, _ bytes: [UInt8]) -> String {
        let file = path + "/" + name
        _ = FileManager.default.createFile(atPath: file, contents: Data(bytes))
        return file
    }
}
