import Foundation

/// Writes a deterministic profiles CSV (the README's "Profiles CSV" columns) that stresses
/// RFC 4180 the way real exports do: about 10% of bios hold commas, 3% embedded
/// CR/LF or LF line breaks, 2% doubled quotes; names in many scripts; emoji.
/// Records end in CRLF. Ids are `p` and seven digits, so key order is id order.
struct ProfileCSVWriter {
    static let header = "id,name,age,gender,city,bio,photos,interests"

    /// The external id of the profile on data row `number` (1-based).
    static func id(_ number: Int) -> String {
        let digits = String(number)
        return "p" + String(repeating: "0", count: max(0, 7 - digits.count)) + digits
    }

    static func write(count: Int, to path: String, seed: UInt64 = 0x5EED_0001) throws {
        var random = SplitMix64(seed: seed)
        let out = try ChunkWriter(path: path)
        out.write(header + "\r\n")
        for number in 1...count {
            var fields: [String] = []
            fields.reserveCapacity(8)
            fields.append(id(number))
            var name = random.pick(Vocabulary.givenNames) + " " + random.pick(Vocabulary.familyNames)
            if random.chance(0.02) { name += " " + random.pick(Vocabulary.emoji) }
            fields.append(name)
            fields.append(String(random.int(in: 18...80)))
            fields.append(random.pick(Vocabulary.genders))
            fields.append(random.pick(Vocabulary.cities))
            fields.append(bio(&random))
            let photoCount = random.int(in: 0...4)
            fields.append((0..<photoCount).map { "https://img.example/\(id(number))/\($0).jpg" }.joined(separator: ";"))
            let interestCount = random.int(in: 0...5)
            fields.append((0..<interestCount).map { _ in random.pick(Vocabulary.interests) }.joined(separator: ";"))
            out.write(fields.map(quotedIfNeeded).joined(separator: ",") + "\r\n")
        }
        try out.finish()
    }

    /// A bio of a few sentences; the probabilities are per bio and independent.
    private static func bio(_ random: inout SplitMix64) -> String {
        if random.chance(0.05) { return "" }
        var text = random.pick(Vocabulary.openers)
        for _ in 0..<random.int(in: 1...3) { text += " " + random.pick(Vocabulary.sentences) }
        if random.chance(0.10) { text += " Coffee, books, long walks, and " + random.pick(Vocabulary.interests) + "." }
        if random.chance(0.03) { text += (random.chance(0.5) ? "\r\n" : "\n") + random.pick(Vocabulary.sentences) }
        if random.chance(0.02) { text += " My motto: \"" + random.pick(Vocabulary.sentences) + "\"" }
        if random.chance(0.15) { text += " " + random.pick(Vocabulary.emoji) }
        return text
    }

    /// RFC 4180: a field with a comma, quote, CR or LF is quoted, quotes doubled.
    static func quotedIfNeeded(_ field: String) -> String {
        guard field.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) else {
            return field
        }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// Buffered writes to a new file (the generators write hundreds of MB).
final class ChunkWriter {
    private let handle: UnsafeMutablePointer<FILE>
    private var buffer: [UInt8] = []

    init(path: String) throws {
        guard let handle = fopen(path, "wb") else { throw BenchError("cannot create \(path)") }
        self.handle = handle
        buffer.reserveCapacity(1 << 20)
    }

    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 20 { flush() }
    }

    private func flush() {
        _ = buffer.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, handle) }
        buffer.removeAll(keepingCapacity: true)
    }

    func finish() throws {
        flush()
        guard fclose(handle) == 0 else { throw BenchError("cannot finish writing a data file") }
    }
}

/// A benchmark that cannot run, with what a person needs to know.
struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
