import Foundation
import HTTPTypes
import HummingbirdTesting
import SwipeTestSupport
import Testing

@testable import SwipeServer

/// The one gate in front of the page-only routes (`SignInGate` with `PageOnly`):
/// the upload, the export and signing out each refuse a request another
/// site led to (its `Sec-Fetch-Site`), even one whose `Origin` is this
/// server's own, and one without a sign-in, each in its own words, and log
/// the refusal by route without the token.
struct PageRequestGateTests {
    let fixture: ServerFixture
    init() throws { fixture = try ServerFixture() }

    /// Each route, its method and what its 403 says.
    static let routes: [(path: String, method: HTTPRequest.Method, forbidden: String, action: String)] = [
        ("/photos?name=a.png", .post, "Photos are uploaded from the page itself.\n", "photo upload"),
        ("/me/export", .get, "Your data is downloaded from the page itself.\n", "export"),
        ("/logout", .post, "Sign out from the page itself.\n", "sign-out"),
    ]

    @Test func anotherSitesRequestIs403AndNoSignInIs401OnEveryPageRoute() async throws {
        let token = try fixture.token(for: "alice")
        try await fixture.withServer { client in
            for route in Self.routes {
                for site in ["cross-site", "same-site"] {
                    var headers = HTTPFields()
                    headers[.cookie] = "swipe_token=" + token
                    headers[.origin] = "http://localhost"
                    headers[HTTPField.Name("Sec-Fetch-Site")!] = site
                    try await client.execute(uri: route.path, method: route.method, headers: headers) { response in
                        #expect(response.status == .forbidden, "\(route.path) \(site)")
                        #expect(String(buffer: response.body) == route.forbidden)
                    }
                }
                var anonymous = HTTPFields()
                anonymous[.origin] = "http://localhost"
                anonymous[HTTPField.Name("Sec-Fetch-Site")!] = "same-origin"
                try await client.execute(uri: route.path, method: route.method, headers: anonymous) { response in
                    #expect(response.status == .unauthorized, "\(route.path)")
                    #expect(String(buffer: response.body).contains("swipe link"))
                }
            }
        }
        let logs = fixture.logs.all
        for route in Self.routes {
            #expect(logs.contains { $0.contains("refused \(route.action): not from the page") }, "\(route.action)")
            #expect(logs.contains { $0.contains("refused \(route.action): not signed in") }, "\(route.action)")
        }
        #expect(!logs.contains { $0.contains(token) })
    }

    /// The photo routes sit under the same gate without the page-only rule
    /// (an `<img>` sends no Origin): no sign-in is 401 and logged by route,
    /// with neither the photo's id nor the token in the log; signed in, the
    /// gate lets the request through to the route (a photo that does not
    /// exist is then the route's own 404).
    @Test func photosNeedASignInAndTheirIdsStayOutOfTheLog() async throws {
        let token = try fixture.token(for: "alice")
        let id = "ph-secret-4711"
        try await fixture.withServer { client in
            try await client.execute(uri: "/photos/" + id, method: .get) { response in
                #expect(response.status == .unauthorized)
                #expect(String(buffer: response.body).contains("swipe link"))
            }
            var signedIn = HTTPFields()
            signedIn[.cookie] = "swipe_token=" + token
            try await client.execute(uri: "/photos/" + id, method: .get, headers: signedIn) { response in
                #expect(response.status == .notFound)
            }
        }
        let logs = fixture.logs.all
        #expect(logs.contains { $0.contains("refused photo: not signed in") })
        #expect(!logs.contains { $0.contains(id) || $0.contains(token) })
    }
}
