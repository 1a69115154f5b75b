import Testing

@testable import SwipeStore

/// The lengths of what a person writes (issue 36, defect 6): name and city
/// at most 100 characters, bio 5,000, at most 30 interests of 50 each, a
/// report's reason 1,000; counted in Unicode scalars, as the databases'
/// `length()` counts; and where bytes stop being UTF-8.
@Suite struct TextLimitsTests {
    @Test func eachLimitAdmitsItsLengthAndRefusesOneMore() throws {
        #expect(try ProfileCheck.name(String(repeating: "n", count: 100)).count == 100)
        #expect(throws: ProfileValueIssue.self) { try ProfileCheck.name(String(repeating: "n", count: 101)) }
        #expect(try ProfileCheck.city(String(repeating: "ü", count: 100))?.unicodeScalars.count == 100)
        #expect(throws: ProfileValueIssue.self) { try ProfileCheck.city(String(repeating: "ü", count: 101)) }
        // Four-byte scalars: 5,000 of them are 20,000 bytes and still fit.
        #expect(try ProfileCheck.bio(String(repeating: "🙂", count: 5_000)) != nil)
        do {
            _ = try ProfileCheck.bio(String(repeating: "🙂", count: 5_001))
            Issue.record("a bio of 5,001 characters was taken")
        } catch {
            #expect(error.column == "bio")
            #expect(error.message == "bio is 5,001 characters, over the 5,000 a bio may be")
        }
        let thirty = (1...30).map { "i\($0)" }.joined(separator: ";")
        #expect(try ProfileCheck.interests(thirty).count == 30)
        do {
            _ = try ProfileCheck.interests(thirty + ";one more")
            Issue.record("31 interests were taken")
        } catch {
            #expect(error.message == "31 interests, over the 30 a profile may have")
        }
        #expect(try ProfileCheck.interests("a;" + String(repeating: "x", count: 50)).count == 2)
        #expect(throws: ProfileValueIssue.self) { try ProfileCheck.interests("a;" + String(repeating: "x", count: 51)) }
        // A library caller's edit is held to the same limits.
        #expect(throws: ProfileValueIssue.self) { try ProfileEdit.bio(String(repeating: "b", count: 5_001)).validate() }
    }

    @Test func theScalarCountAgreesWithSwiftsOnRandomText() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [Character] = ["a", "é", "ש", "ع", "🙂", "👩‍👩‍👧", "\u{301}", " ", "\t"]
        for _ in 0..<200 {
            let text = String((0..<Int.random(in: 0...300, using: &generator)).map { _ in alphabet.randomElement()! })
            #expect(TextLimits.scalarCount(Array(text.utf8)) == text.unicodeScalars.count)
            for limit in [0, 1, 50, 100, 299] {
                #expect(TextLimits.exceeds(text, limit) == (text.unicodeScalars.count > limit))
            }
        }
    }

    @Test func theFirstInvalidByteIsFound() {
        #expect(TextLimits.firstInvalidUTF8(Array("héllo".utf8)) == nil)
        #expect(TextLimits.firstInvalidUTF8([0x61, 0x62, 0xFF, 0x63]) == 2)
        #expect(TextLimits.firstInvalidUTF8([0x61, 0xC3]) == 1, "a sequence cut short")
        #expect(TextLimits.firstInvalidUTF8([0xED, 0xA0, 0x80]) == 0, "a surrogate")
        #expect(TextLimits.firstInvalidUTF8([0xC0, 0xAF]) == 0, "an overlong form")
        #expect(TextLimits.firstInvalidUTF8([]) == nil)
    }
}
