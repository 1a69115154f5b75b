import Foundation
import SwipeStore
import Testing

/// A photo's grant (Documentation/Photos.md): the viewer's alone, for that
/// photo alone, and good from the moment it is made through the end of the
/// next day (UTC), worked by hand from the calendar below.
@Suite struct PhotoGrantTests {
    /// 2026-11-28T10:00:00Z, day 20,785 since 1970-01-01.
    let made = Date(timeIntervalSince1970: 1_795_860_000)
    let day: TimeInterval = 86_400

    @Test func aGrantIsGoodThroughTheEndOfTheNextDayAndNoLonger() {
        let grant = PhotoGrant.make(secret: "s", viewer: "ana", photo: "p1", now: made)
        #expect(grant.hasPrefix("20786-"))
        #expect(PhotoGrant.isValid(grant, secret: "s", viewer: "ana", photo: "p1", now: made))
        // 2026-11-29T23:59:59Z: the last second of the next day.
        let lastSecond = Date(timeIntervalSince1970: 1_795_996_799)
        #expect(PhotoGrant.isValid(grant, secret: "s", viewer: "ana", photo: "p1", now: lastSecond))
        #expect(!PhotoGrant.isValid(grant, secret: "s", viewer: "ana", photo: "p1", now: lastSecond + 1))
        #expect(!PhotoGrant.isValid(grant, secret: "s", viewer: "ana", photo: "p1", now: made + 7 * day))
    }

    @Test func aGrantIsTheViewersAloneForThatPhotoAlone() {
        let grant = PhotoGrant.make(secret: "s", viewer: "ana", photo: "p1", now: made)
        #expect(!PhotoGrant.isValid(grant, secret: "s", viewer: "bob", photo: "p1", now: made))
        #expect(!PhotoGrant.isValid(grant, secret: "s", viewer: "ana", photo: "p2", now: made))
        #expect(!PhotoGrant.isValid(grant, secret: "t", viewer: "ana", photo: "p1", now: made))
    }

    @Test func movingTheLapseDayOnBreaksTheGrant() {
        let grant = PhotoGrant.make(secret: "s", viewer: "ana", photo: "p1", now: made)
        let digest = grant.split(separator: "-")[1]
        for forged in ["20787-\(digest)", "99999999-\(digest)", String(digest), "20786-", "-\(digest)", "x-\(digest)"] {
            #expect(!PhotoGrant.isValid(forged, secret: "s", viewer: "ana", photo: "p1", now: made), "\(forged)")
        }
    }

    @Test func aPathCarriesTheGrantAndAURLStaysAsItIs() {
        let id = String(repeating: "ab", count: 16)
        let path = PhotoGrant.path("/photos/" + id, secret: "s", viewer: "ana", now: made)
        #expect(path == "/photos/\(id)?for=" + PhotoGrant.make(secret: "s", viewer: "ana", photo: id, now: made))
        #expect(PhotoGrant.path("https://example.com/a.jpg", secret: "s", viewer: "ana") == "https://example.com/a.jpg")
    }
}
