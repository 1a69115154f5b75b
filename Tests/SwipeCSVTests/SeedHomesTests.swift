import Foundation
import Testing

@testable import SwipeCSV

/// The demo's people live in places that fit their names (issue 24, a
/// first-hour defect: the seed put a Goldberg in Ciudad de México and a
/// 佐藤 in Lagos). The oracle is written here by hand, not taken from
/// `scripts/make-seed.py`: a name written in a script lives where that script
/// is written, and some Latin-script surnames belong to one country (or to
/// its diaspora in New York).
@Suite struct SeedHomesTests {
    static let seed = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("seed/profiles.csv").path

    /// Where a name in each script may live (Unicode blocks of its letters).
    static let scripts: [(name: String, range: ClosedRange<UInt32>, cities: Set<String>)] = [
        ("Hebrew", 0x0590...0x05FF, ["תל אביב", "New York"]),
        ("Cyrillic", 0x0400...0x04FF, ["Київ"]),
        ("Greek", 0x0370...0x03FF, ["Αθήνα"]),
        ("Arabic", 0x0600...0x06FF, ["القاهرة"]),
        ("Devanagari", 0x0900...0x097F, ["मुंबई"]),
        ("Bengali", 0x0980...0x09FF, ["Kolkata"]),
        ("Tamil", 0x0B80...0x0BFF, ["Chennai"]),
        ("Thai", 0x0E00...0x0E7F, ["กรุงเทพฯ"]),
        ("Hangul", 0xAC00...0xD7AF, ["서울"]),
    ]

    /// Latin-script surnames whose home is plain.
    static let surnames: [String: Set<String>] = [
        "Goldberg": ["תל אביב", "New York"], "Cohen": ["תל אביב", "New York"],
        "Ben-David": ["תל אביב", "New York"], "Mizrahi": ["תל אביב", "New York"],
        "O'Connor": ["Dublin", "New York"], "Murchú": ["Dublin", "New York"],
        "Bhriain": ["Dublin", "New York"], "Faoláin": ["Dublin", "New York"],
        "Watanabe": ["東京", "大阪"], "Nakamura": ["東京", "大阪"], "Tanaka": ["東京", "大阪"], "Sato": ["東京", "大阪"],
        "Kim": ["서울"], "Zhang": ["北京", "上海"], "Chou": ["北京", "上海"],
        "Natarajan": ["Chennai"], "Iyer": ["Chennai"],
        "Nurhaliza": ["Jakarta"], "Santoso": ["Jakarta"], "Kealoha": ["Honolulu"], "Akana": ["Honolulu"],
        "Kahale": ["Honolulu"], "Sigurðardóttir": ["Reykjavík"], "Guðmundsson": ["Reykjavík"],
        "Kowalska": ["Kraków"], "Nowak": ["Kraków"], "Dvořák": ["Praha"], "Nováková": ["Praha"],
        "Yılmaz": ["İstanbul"], "Demir": ["İstanbul"], "Kaya": ["İstanbul"],
    ]

    /// The name without the suffix the seed adds to a reused name.
    static func base(_ name: String) -> String {
        for suffix in [" Jr.", " II", " B.", " M.", " K."] where name.hasSuffix(suffix) {
            return String(name.dropLast(suffix.count))
        }
        return name
    }

    /// The cities a name may live in, or nil when the oracle does not say.
    static func homes(of name: String) -> Set<String>? {
        let name = base(name)
        for script in scripts where name.unicodeScalars.contains(where: { script.range.contains($0.value) }) {
            return script.cities
        }
        // Han: Japanese names in the seed are written family name, space,
        // given name; Chinese names with no space.
        if name.unicodeScalars.contains(where: { (0x4E00...0x9FFF).contains($0.value) }) {
            return name.contains(" ") ? ["東京", "大阪"] : ["北京", "上海"]
        }
        return name.split(separator: " ").last.flatMap { surnames[String($0)] }
    }

    @Test func everyoneLivesWhereTheirNameFits() throws {
        let reader = try CSVReader(path: Self.seed)
        let header = try #require(try reader.next()).fields
        let id = try #require(header.firstIndex(of: "id"))
        let name = try #require(header.firstIndex(of: "name"))
        let city = try #require(header.firstIndex(of: "city"))
        var checked = 0
        var profiles = 0
        while let record = try reader.next() {
            let fields = record.fields
            guard fields[id] != "demo" else { continue }
            profiles += 1
            #expect(!fields[city].isEmpty, "\(fields[id]) \(fields[name]) has no city")
            guard let homes = Self.homes(of: fields[name]) else { continue }
            checked += 1
            #expect(
                homes.contains(fields[city]),
                "\(fields[id]) \(fields[name]) lives in \(fields[city]), not in \(homes.sorted())")
        }
        #expect(profiles == 240)
        // The oracle speaks for most of the town, not for a handful.
        #expect(checked >= 120, "only \(checked) of \(profiles) names checked")
    }

    /// The oracle itself catches the defect it was written for.
    @Test func theOracleRefusesAGoldbergInMexicoCity() {
        #expect(Self.homes(of: "Hannah Goldberg")?.contains("Ciudad de México") == false)
        #expect(Self.homes(of: "佐藤 花子 II") == ["東京", "大阪"])
        #expect(Self.homes(of: "王芳") == ["北京", "上海"])
    }
}
