/// Numbers as people type them: `[+-]digits[.digits][e[+-]digits]`.
///
/// Swift's `Double(String)` also reads hexadecimal (`0x10` is 16), `nan`
/// and `inf`; a drag, a distance or a coordinate typed that way is a
/// mistake to refuse, not a number to guess. The REPL's parser and the
/// store's preference values both read numbers through this.
public enum PlainDecimal {
    /// The value of a plain decimal number, `[+-]digits[.digits][e[+-]digits]`
    /// (digits on at least one side of the point); nil for anything else
    /// Double would read: hexadecimal (`0x10`), `nan`, `inf`, other scripts'
    /// digits. Its size is not checked here.
    public static func value(_ word: String) -> Double? {
        var bytes = word.utf8[...]
        func digits() -> Int {
            let count = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        func skip(_ allowed: String) -> Bool {
            guard let first = bytes.first, allowed.utf8.contains(first) else { return false }
            bytes = bytes.dropFirst()
            return true
        }
        _ = skip("+-")
        var mantissa = digits()
        if skip(".") { mantissa += digits() }
        guard mantissa > 0 else { return nil }
        if skip("eE") {
            _ = skip("+-")
            guard digits() > 0 else { return nil }
        }
        guard bytes.isEmpty else { return nil }
        return Double(word)
    }
}
