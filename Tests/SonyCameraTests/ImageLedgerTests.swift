import Exposure
import Foundation
import Shooting
import Testing

@testable import SonyCamera

/// The pure bookkeeping behind releases and downloads: which announcement a download explains, the counts a
/// release moves, the poll pauses, and how an image is matched to its frame by its own exposure time.
struct ImageLedgerTests {
    @Test func announcementsNoReleaseExplainsAreUnclaimedUntilClaimed() {
        var ledger = ImageLedger()
        #expect(!ledger.hasUnclaimedAnnouncement)
        // An earlier session's exposure finished after the connect.
        ledger.noteObjectAdded()
        #expect(ledger.hasUnclaimedAnnouncement)
        ledger.claim(upTo: 1)
        #expect(!ledger.hasUnclaimedAnnouncement)
        // Claims never go backwards.
        ledger.claim(upTo: 0)
        ledger.noteObjectAdded()
        #expect(ledger.hasUnclaimedAnnouncement)
    }

    @Test func releasesAndCapturedEventsAreCountedPerSession() {
        var ledger = ImageLedger()
        #expect(ledger.releases == 0 && ledger.capturedEvents == 0)
        ledger.noteRelease()
        ledger.noteCapturedEvent()
        ledger.noteShootingFileInfoEvent()
        #expect(ledger.releases == 1 && ledger.capturedEvents == 1 && ledger.shootingFileInfoEvents == 1)
        #expect(ImageLedger() == ImageLedger())
    }

    @Test func pollsStartShortAndDoubleUpToTheCeiling() {
        var polls = PollBackoff(.milliseconds(5) ... .milliseconds(40))
        let pauses = (0..<6).map { _ in polls.take() }
        #expect(
            pauses == [
                .milliseconds(5), .milliseconds(10), .milliseconds(20), .milliseconds(40), .milliseconds(40),
                .milliseconds(40)
            ])
    }

    @Test(arguments: [
        (ShutterSpeed(numerator: 1, denominator: 250), ShutterSpeed(numerator: 1, denominator: 250), true),
        // Written another way (10/2500) or rounded (1/256): the same exposure.
        (ShutterSpeed(numerator: 1, denominator: 250), ShutterSpeed(numerator: 10, denominator: 2500), true),
        (ShutterSpeed(numerator: 1, denominator: 250), ShutterSpeed(numerator: 1, denominator: 256), true),
        // A third of a stop off is another frame of the bracket.
        (ShutterSpeed(numerator: 1, denominator: 250), ShutterSpeed(numerator: 1, denominator: 320), false),
        (ShutterSpeed(numerator: 30, denominator: 1), ShutterSpeed(numerator: 15, denominator: 1), false)
    ])
    func aTimedFramesImageMatchesWithinASixthOfAStop(planned: ShutterSpeed, recorded: ShutterSpeed, matches: Bool) {
        #expect(ExpectedExposure.timed(planned).matches(recorded) == matches)
    }

    @Test func aBulbFramesImageMatchesTheHeldTime() {
        let held = ExpectedExposure.bulb(held: .seconds(40))
        #expect(held.matches(ShutterSpeed(numerator: 40, denominator: 1)))
        #expect(held.matches(ShutterSpeed(numerator: 403, denominator: 10)))
        #expect(!held.matches(ShutterSpeed(numerator: 30, denominator: 1)))
        #expect(!held.matches(ShutterSpeed(numerator: 1, denominator: 10)))
        let short = ExpectedExposure.bulb(held: .milliseconds(1500))
        #expect(short.matches(ShutterSpeed(numerator: 19, denominator: 10)))
        #expect(!short.matches(ShutterSpeed(numerator: 25, denominator: 10)))
    }

    @Test func anUnmatchedImageIsNamedWithTheExposureItHas() {
        #expect(ShutterSpeed(numerator: 15, denominator: 1).fileTag == "15s")
        #expect(ShutterSpeed(numerator: 25, denominator: 10).fileTag == "2.5s")
        #expect(ShutterSpeed(numerator: 1, denominator: 250).fileTag == "1-250s")
    }
}
