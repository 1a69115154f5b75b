import Foundation
import Testing

@testable import SwipeCore

/// stack: the 300 × 400 container centred on (187.5, 273.5); card i inset 10·i;
/// rotation tan(dx/600); like when 150 + dx > 400, hate when 150 + dx < −65.
@Suite struct StackPhysicsTests {
    @Test func restingLayout() throws {
        let cards = try deck(4, physics: .stack).snapshot.cards
        // centre y 273.5 + 10·i, scale (300 − 20·i)/300: 1, 280/300, 260/300; other hidden behind the third.
        expectPose(cards[0].pose, x: 187.5, y: 273.5)
        expectPose(cards[1].pose, x: 187.5, y: 283.5, scale: 280.0 / 300)
        expectPose(cards[2].pose, x: 187.5, y: 293.5, scale: 260.0 / 300)
        expectPose(cards[3].pose, x: 187.5, y: 293.5, scale: 260.0 / 300, alpha: 0)
    }

    @Test func dragPose() throws {
        var controller = try deck(4, physics: .stack)
        let snapshot = try controller.send(.drag(dx: 150, dy: 20)).snapshot
        // tan(150/600) = tan(0.25) = 0.2553419212 rad.
        expectClose(snapshot.cards[0].pose.rotation, 0.2553419212210362)
        expectClose(snapshot.cards[0].pose.center.x, 337.5)
        expectClose(snapshot.cards[0].pose.center.y, 293.5)
        // like = 150/250 = 0.6.
        expectClose(snapshot.indicators.like, 0.6)
        let left = try controller.send(.drag(dx: -107.5, dy: 0)).snapshot
        // hate = 107.5/215 = 0.5.
        expectClose(left.indicators.hate, 0.5)
    }

    @Test func asymmetricThresholds() throws {
        var controller = try deck(8, physics: .stack)
        // 150 + 250 = 400 is not > 400; 150 − 215 = −65 is not < −65.
        #expect(try controller.swipe(250).decisions.isEmpty)
        #expect(try controller.swipe(-215).decisions.isEmpty)
        #expect(try controller.swipe(-214).decisions.isEmpty)
        let like = try controller.swipe(250.0001)
        #expect(like.decisions.map(\.decision) == [.like])
        guard case let .animate(line) = like.actions[1] else { Issue.record("no fly-out"); return }
        #expect(line.duration == 0.2)
        // flies by (+200, +75): x 187.5 + 250.0001 + 200 = 637.5001, y 273.5 + 75 = 348.5, alpha 0.
        expectClose(line.keyframes[1].cards[0].pose.center.x, 637.5001)
        expectClose(line.keyframes[1].cards[0].pose.center.y, 348.5)
        expectClose(line.keyframes[1].cards[0].pose.alpha, 0)
        // the hidden fourth card moves up to the third's place and shows.
        expectPose(line.keyframes[1].cards[3].pose, x: 187.5, y: 293.5, scale: 260.0 / 300)
        let hate = try controller.swipe(-215.0001)
        #expect(hate.decisions.map(\.decision) == [.hate])
        guard case let .animate(back) = hate.actions[1] else { Issue.record("no fly-out"); return }
        // x 187.5 − 215.0001 − 200 = −227.5001.
        expectClose(back.keyframes[1].cards[0].pose.center.x, -227.5001)
    }
}
