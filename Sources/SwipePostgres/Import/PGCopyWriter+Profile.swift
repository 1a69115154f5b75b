import SwipeCSV

extension PGCopyWriter {
    /// One profile row in COPY's binary format, in `profiles`' column order
    /// (id, name, age, gender, city, bio, photos, interests, lat, lon,
    /// seeking, age_min, age_max, max_km), after its file line when `line`
    /// is given (the staging table's first column). Texts go from the row's
    /// buffer as they are: no escaping in the binary format.
    mutating func writeProfile(_ row: ProfileRow, line: Int?) throws {
        binaryRow(fields: line == nil ? 14 : 15)
        if let line { binaryInt8(Int64(line)) }
        row.bytes.withUnsafeBufferPointer { bytes in
            for column in ProfileRow.Column.allCases {
                switch column {
                case .gender: binaryInt4(Int32(row.age))
                case .seeking:
                    binaryFloat8(row.lat)
                    binaryFloat8(row.lon)
                default: break
                }
                if let range = row.texts[column.rawValue] {
                    binaryText(UnsafeBufferPointer(rebasing: bytes[range]))
                } else {
                    binaryNull()
                }
            }
        }
        binaryInt4(Int32(row.ageMin))
        binaryInt4(Int32(row.ageMax))
        binaryFloat8(row.maxKm)
        try endBinaryRow()
    }
}
