import SwipeCore
import Testing

@testable import SwipeCSV
@testable import SwipeSQLite
@testable import SwipeStore

/// Preference values are numbers as people type them: `prefs km 0x10` or a
/// location of `nan` is refused, where Swift's Double(String) would read
/// 16 and NaN.
@Suite struct PreferenceValueTests {
    @Test(arguments: ["0x10", "nan", "inf", "1e", ".", "5km", "١٢"])
    func aDistanceThatIsNoPlainDecimalIsRefused(_ text: String) {
        #expect(throws: StoreError.self) { try PreferencesChange.maxKm(text) }
    }

    @Test func plainDistancesAndOffAreRead() throws {
        #expect(try PreferencesChange.maxKm("50") == 50)
        #expect(try PreferencesChange.maxKm(" 2.5 ") == 2.5)
        #expect(try PreferencesChange.maxKm("1e2") == 100)
        #expect(try PreferencesChange.maxKm("off") == nil)
    }

    @Test(arguments: ["0x10,5", "5,0x10", "nan,1", "1,inf"])
    func aLocationThatIsNoPlainDecimalIsRefused(_ text: String) {
        #expect(throws: StoreError.self) { try PreferencesChange.location(text) }
    }

    @Test func plainLocationsAreRead() throws {
        #expect(try PreferencesChange.location("52.52,13.40") == Location(lat: 52.52, lon: 13.4))
        #expect(try PreferencesChange.location("-33.9 151.2") == Location(lat: -33.9, lon: 151.2))
    }
}
