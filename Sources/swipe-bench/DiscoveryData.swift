import Foundation
import SwipeCSV
import SwipeSQLite
import SwipeStore

/// The discovery data set of one size (README "Discovery", BENCHMARKS.md):
/// `count` profiles over 240 cities whose sizes follow Zipf's law (the k-th
/// largest holds 1/k of the first's share), placed around their city centre
/// (a jitter of about 10 km), with realistic preferences: one or two genders
/// sought (10% everyone), an age window of ±2 to ±15 years, `max_km` of 5 to
/// 300 (30% no limit), 3% with no location. The benchmark viewers come last,
/// with keys above every generated profile (the worst case for a walk by key).
struct DiscoveryData {
    let label: String
    let count: Int
    let directory: String

    static let cityCount = 240
    var csv: String { "\(directory)/discovery-\(label).csv" }
    /// The same rows without the six discovery columns: today's import, for the cost of the new ones.
    var plainCSV: String { "\(directory)/discovery-plain-\(label).csv" }
    /// With the ranking's fit stored (named anew when it gained it, so a
    /// template made before is made again).
    var templateDB: String { "\(directory)/discovery-template-fit-\(label).sqlite" }
    var workDB: String { "\(directory)/discovery-work-\(label).sqlite" }

    /// City centres (deterministic) and Zipf weights.
    static let cities: [(lat: Double, lon: Double, weight: Double)] = {
        var random = SplitMix64(seed: 240)
        return (1...cityCount).map { rank in
            let lat = Double(random.int(in: -45_000...60_000)) / 1000
            let lon = Double(random.int(in: -179_000...179_000)) / 1000
            return (lat, lon, 1 / Double(rank))
        }
    }()

    /// The benchmark viewers: id, CSV fields after `id,name,`.
    static func viewers(smallest: Int) -> [(id: String, fields: String)] {
        let dense = cities[0], town = cities[smallest]
        func at(_ city: (lat: Double, lon: Double, weight: Double)) -> String { "\(city.lat),\(city.lon)" }
        return [
            ("v-dense", "30,m,\(at(dense)),f,25,35,50"),
            ("v-town", "30,m,\(at(town)),f,25,35,50"),
            ("v-narrow", "30,m,\(at(dense)),f,29,31,5"),
            ("v-heavy", "30,m,\(at(dense)),,18,120,"),
            ("v-open", "30,m,,,,18,120,"),
            ("v-liked", "30,f,\(at(dense)),,18,120,"),
            ("v-quota", "30,f,\(at(dense)),,18,120,"),
            ("v-plain", "30,f,\(at(dense)),,18,120,"),
        ]
    }

    /// Writes both CSVs.
    func writeCSVs() throws {
        var random = SplitMix64(seed: UInt64(count))
        let total = Self.cities.reduce(0) { $0 + $1.weight }
        var cumulative: [Double] = []
        var sum = 0.0
        for city in Self.cities {
            sum += city.weight / total
            cumulative.append(sum)
        }
        var full = "id,name,age,gender,lat,lon,seeking,age_min,age_max,max_km\n"
        var plain = "id,name,age,gender\n"
        full.reserveCapacity(count * 60)
        let genders = ["f", "m"]
        for n in 0..<count {
            let u = Double(random.next() >> 11) / Double(1 << 53)
            var low = 0, high = cumulative.count - 1
            while low < high {
                let mid = (low + high) / 2
                if cumulative[mid] < u { low = mid + 1 } else { high = mid }
            }
            let city = Self.cities[low]
            let age = random.int(in: 18...60)
            let gender = random.chance(0.04) ? "x" : genders[random.int(in: 0...1)]
            var place = ","
            if !random.chance(0.03) {
                // About 10 km of jitter (a sum of uniforms is close to a normal).
                let dLat = (Double(random.int(in: -1000...1000)) + Double(random.int(in: -1000...1000))) / 20_000
                let dLon = (Double(random.int(in: -1000...1000)) + Double(random.int(in: -1000...1000))) / 20_000
                place = "\(min(90, max(-90, city.lat + dLat))),\(min(180, max(-180, city.lon + dLon)))"
            }
            let roll = random.int(in: 0...9)
            let other = gender == "f" ? "m" : "f"
            let seeking = roll == 0 ? "" : roll <= 7 ? other : "f;m"
            let spread = random.int(in: 2...15)
            let km = random.chance(0.3) ? "" : String(random.pick([5, 10, 25, 50, 100, 300]))
            let fields = "\(age),\(gender)"
            full +=
                "p\(n),P\(n),\(fields),\(place),\(seeking),\(max(18, age - spread)),\(min(120, age + spread)),\(km)\n"
            plain += "p\(n),P\(n),\(fields)\n"
        }
        for viewer in Self.viewers(smallest: Self.cityCount - 1) {
            full += "\(viewer.id),\(viewer.id),\(viewer.fields)\n"
            plain +=
                "\(viewer.id),\(viewer.id),\(viewer.fields.split(separator: ",").prefix(2).joined(separator: ","))\n"
        }
        try full.write(toFile: csv, atomically: true, encoding: .utf8)
        try plain.write(toFile: plainCSV, atomically: true, encoding: .utf8)
    }

    /// Generates what is missing (CSVs, the template database with the heavy
    /// viewer's decisions, 10k likes of `v-liked` and the ranking's fit of
    /// them), then refreshes the working copy.
    func prepare(swipe: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        if !FileManager.default.fileExists(atPath: csv) || !FileManager.default.fileExists(atPath: plainCSV) {
            log("generating discovery \(label) profiles …")
            try writeCSVs()
        }
        if !FileManager.default.fileExists(atPath: templateDB) {
            log("importing discovery \(label) …")
            let partial = templateDB + ".partial"
            DataSet.remove(database: partial)
            _ = try ChildProcess.check([swipe, "import", "--db", partial, "--quiet", csv])
            try Self.addDecisions(path: partial, count: count)
            // The fit a server or a decisions import keeps (over the 210k
            // decisions at 1M), so each candidate's lookup of it is timed.
            try SQLiteStore(path: partial).refitRanking()
            try RawDatabase(path: partial).execute(
                "ANALYZE; PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE")
            guard rename(partial, templateDB) == 0 else { throw BenchError("cannot rename \(partial)") }
        }
        DataSet.remove(database: workDB)
        try FileManager.default.copyItem(atPath: templateDB, toPath: workDB)
    }
}

extension DiscoveryData {
    /// The heavy viewer decided 20% of everyone (200k at 1M), spread over all
    /// keys; `v-liked` is liked (every tenth superliked) by 10k profiles.
    static func addDecisions(path: String, count: Int) throws {
        let store = try SQLiteStore(path: path)
        var random = SplitMix64(seed: 7)
        let heavy = count + 4, liked = count + 6
        var decided = Set<Int>()
        while decided.count < count / 5 { decided.insert(random.int(in: 1...count)) }
        try store.connection.writeTransaction {
            let insert = try store.connection.statement(
                """
                INSERT INTO decisions (viewer, profile, decision, via, decided_at) VALUES (?1, ?2, ?3, 'drag', ?4)
                """)
            for (index, key) in decided.sorted().enumerated() {
                try insert.bind(
                    .int(heavy), .int(key), .text("hate"), .text("2026-11-\(10 + index % 10)T00:00:00.000Z")
                ).run()
            }
            for index in 0..<min(10_000, count / 2) {
                let second = index % 60, minute = index / 60 % 60, hour = index / 3600 % 24
                let time = "2026-11-15T\(two(hour)):\(two(minute)):\(two(second)).000Z"
                try insert.bind(
                    .int(index * 2 + 1), .int(liked), .text(index % 10 == 0 ? "superlike" : "like"), .text(time)
                ).run()
            }
        }
    }
}

private func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
