import Logging
import NIOWebSocket
import SwipeSession
import SwipeStore

/// An erasure made anywhere (`swipe erase` in another process, `me erase`
/// on a socket, another server) reaches the open pages: the erased
/// person's own sockets close (4001, signed out), their card leaves every
/// open deck, and the pages of those they had matched are told
/// `{"event":"unmatched","profile":ID,"reason":"erased"}`.
///
/// The erasure leaves no row naming the person (Documentation/PersonalData.md),
/// only the count of erasures moved (`ChangeMarks.erasures`), which the
/// change watcher reads every 100 ms. So who was erased is read from what
/// this server holds: the viewers with a socket open, the cards of their
/// decks and whom their pages know as matches, each checked against the
/// profiles as they are now. Nothing is told of anyone who still exists,
/// whatever wrote the count.
extension SwipeServer {
    /// One sweep: returns how many notices it sent (sockets closed, decks
    /// told to change, matches told).
    static func sweepErasures(
        hub: ViewerHub, backend: DatabaseServerBackend, claim: (String) -> Bool, logger: Logger
    ) throws -> Int {
        let open = hub.byViewer.map { viewer, socket in
            (viewer: viewer, socket: socket, cards: socket.session.heldProfiles, partners: socket.session.partnerIDs)
        }
        var candidates = Set(open.map(\.viewer))
        for socket in open { candidates.formUnion(socket.cards.union(socket.partners)) }
        guard !candidates.isEmpty else { return 0 }
        let gone = candidates.subtracting(try backend.existingProfiles(among: candidates))
        guard !gone.isEmpty else { return 0 }
        var notices = 0
        for viewer in Set(open.map(\.viewer)).intersection(gone) {
            // A viewer erased by `me erase` on one of these sockets: that
            // socket answers, then closes them all itself.
            if open.contains(where: { $0.viewer == viewer && $0.socket.session.isFinished }) { continue }
            notices += hub.close(viewer, code: signedOut, reason: "signed out")
        }
        for socket in open where !gone.contains(socket.viewer) {
            let leaving = socket.cards.intersection(gone)
            for id in leaving.sorted() { socket.socket.session.withdrawSoon(id) }
            if !leaving.isEmpty {
                socket.socket.outbox.send(ViewerHub.deckChanged)
                notices += 1
            }
            for other in socket.partners.intersection(gone).sorted() {
                socket.socket.session.forgetPartner(other)
                // Once per viewer: `send` reaches every socket of theirs.
                if claim(erasureKey(other, toldTo: socket.viewer)) {
                    notices += hub.send(unmatched(other), to: socket.viewer)
                }
            }
        }
        logger.info(
            "erasure seen",
            metadata: ["gone": .stringConvertible(gone.count), "notices": .stringConvertible(notices)])
        return notices
    }

    /// The key that lets `erased`'s end be told to `viewer` once, whichever
    /// path (this server's own `me erase`, or the sweep) comes first.
    static func erasureKey(_ erased: String, toldTo viewer: String) -> String {
        "erased\u{0}\(erased)\u{0}\(viewer)"
    }
}
