import Foundation
import Testing

@testable import SwipeServer

/// Tokens: HMAC-SHA256 over viewer and expiry, keyed by the database's secret.
struct AccessTokenTests {
    let tokens = AccessTokens(secret: String(repeating: "ab", count: 32))
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func aValidTokenActsAsItsViewerUntilItExpires() throws {
        let expiry = now.addingTimeInterval(3600)
        let token = tokens.issue(viewer: "p-7", expiry: expiry)
        let grant = try tokens.verify(token, now: now)
        #expect(grant.viewer == "p-7")
        #expect(grant.expiry == expiry)
        #expect(try tokens.verify(token, now: expiry.addingTimeInterval(-1)).viewer == "p-7")
    }

    @Test func anExpiredTokenIsRefused() {
        let expiry = now.addingTimeInterval(60)
        let token = tokens.issue(viewer: "p-7", expiry: expiry)
        #expect(throws: AccessTokenError.expired(expiry)) { try tokens.verify(token, now: expiry) }
        #expect(throws: AccessTokenError.expired(expiry)) {
            try tokens.verify(token, now: expiry.addingTimeInterval(86_400))
        }
    }

    @Test func aTokenWithAnotherViewerOrExpiryIsForged() throws {
        let token = tokens.issue(viewer: "alice", expiry: now.addingTimeInterval(3600))
        var parts = token.split(separator: ".").map(String.init)
        // The same MAC with another viewer: acting as someone else.
        var asBob = parts
        asBob[1] = Base64URL.encode(Array("bob".utf8))
        #expect(throws: AccessTokenError.badSignature) { try tokens.verify(asBob.joined(separator: "."), now: now) }
        // A later expiry: living longer than granted.
        var longer = parts
        longer[2] = String(Int64(parts[2])! + 86_400)
        #expect(throws: AccessTokenError.badSignature) { try tokens.verify(longer.joined(separator: "."), now: now) }
        // One bit of the MAC flipped.
        var mac = Base64URL.decode(Substring(parts[3]))!
        mac[0] ^= 1
        parts[3] = Base64URL.encode(mac)
        #expect(throws: AccessTokenError.badSignature) { try tokens.verify(parts.joined(separator: "."), now: now) }
    }

    @Test func aTokenFromAnotherDatabaseIsRefused() {
        let other = AccessTokens(secret: String(repeating: "cd", count: 32))
        let token = other.issue(viewer: "p-7", expiry: now.addingTimeInterval(3600))
        #expect(throws: AccessTokenError.badSignature) { try tokens.verify(token, now: now) }
    }

    @Test(arguments: [
        "", "v1", "v1.a.b.c", "v2.cC0x.1900000000.AAAA", "v1.cC0x.soon.AAAA", "v1.cC0x.1900000000.@@",
        "v1.cC0x.1900000000.AAAA.extra",
    ])
    func somethingThatIsNotATokenIsMalformed(text: String) {
        #expect(throws: AccessTokenError.malformed) { try tokens.verify(text, now: now) }
    }

    @Test func viewerIdsWithAnyCharactersRoundTrip() throws {
        for viewer in ["p-1", "Zoë 🌶", "a.b.c", "line\nbreak", "+/="] {
            let token = tokens.issue(viewer: viewer, expiry: now.addingTimeInterval(10))
            #expect(token.allSatisfy { $0.isLetter || $0.isNumber || "-_.".contains($0) })
            #expect(try tokens.verify(token, now: now).viewer == viewer)
        }
    }

    @Test func theRefusalNeverRepeatsTheToken() {
        let token = tokens.issue(viewer: "p-7", expiry: now)
        for error in [AccessTokenError.malformed, .badSignature, .expired(now), .missing] {
            #expect(!error.description.contains(token))
            #expect(!error.description.contains(token.split(separator: ".")[3]))
        }
    }

    /// One spelling per token: base64url with the unused low bits of the
    /// last character set, or an expiry with a sign or leading zeros, spells
    /// the same bytes differently and is refused.
    @Test func aTokenHasOneSpelling() throws {
        let tokens = AccessTokens(secret: "s")
        let token = tokens.issue(viewer: "alice", expiry: Date(timeIntervalSince1970: 1_900_000_000))
        let parts = token.split(separator: ".").map(String.init)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        // The MAC is 32 bytes: 43 characters, the last one carrying 4 bits and 2 unused ones.
        let last = try #require(alphabet.firstIndex(of: parts[3].last!))
        var variants: [String] = []
        for low in 0..<4 where (last & ~3) | low != last {
            variants.append("v1.\(parts[1]).\(parts[2]).\(parts[3].dropLast())\(alphabet[(last & ~3) | low])")
        }
        // "alice" is 5 bytes: 7 characters, the last one with 2 unused bits.
        let viewerLast = try #require(alphabet.firstIndex(of: parts[1].last!))
        for low in 0..<4 where (viewerLast & ~3) | low != viewerLast {
            variants.append("v1.\(parts[1].dropLast())\(alphabet[(viewerLast & ~3) | low]).\(parts[2]).\(parts[3])")
        }
        variants += ["v1.\(parts[1]).+\(parts[2]).\(parts[3])", "v1.\(parts[1]).0\(parts[2]).\(parts[3])"]
        #expect(variants.count == 8)
        #expect(try tokens.verify(token, now: Date(timeIntervalSince1970: 0)).viewer == "alice")
        for variant in variants {
            #expect(throws: AccessTokenError.malformed, "\(variant)") {
                try tokens.verify(variant, now: Date(timeIntervalSince1970: 0))
            }
        }
    }
}
