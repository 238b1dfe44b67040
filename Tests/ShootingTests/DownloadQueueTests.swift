import Exposure
import Shooting
import Testing

/// The rule that files each downloaded image under the fired frame its EXIF says it is: pure, no sockets.
@Suite struct DownloadQueueTests {
    private func fired(_ number: Int, _ denominator: Int) -> DownloadQueue.Fired {
        .init(
            position: ShootPosition(set: 1, frame: number), setting: .timed(speed(denominator)),
            expected: .timed(speed(denominator)))
    }

    private func image(_ name: String, _ denominator: Int?, time: String? = nil) -> SavedImage {
        SavedImage(
            fileName: name, path: "/x/" + name, byteCount: 1, exposure: denominator.map(speed), dateTimeOriginal: time)
    }

    private func position(_ number: Int) -> ShootPosition { ShootPosition(set: 1, frame: number) }

    @Test func filesImagesInFiringOrderAndCompletesAFrameWhenTheNextOnesFileArrives() {
        var queue = DownloadQueue()
        queue.fired(fired(1, 1000))
        queue.fired(fired(2, 500))
        #expect(queue.likelyNext?.position == position(1))
        var settled = queue.arrived(image("A.JPG", 1000))
        #expect(settled.verdict == .frame(position(1)) && settled.complete.isEmpty)
        settled = queue.arrived(image("B.JPG", 500))
        #expect(settled.verdict == .frame(position(2)))
        #expect(settled.complete.map(\.position) == [position(1)])
        let end = queue.drained()
        #expect(end.complete.map(\.position) == [position(2)] && end.missing.isEmpty && queue.isEmpty)
    }

    @Test func aRawJPEGPairStaysTogetherEvenWhenTheNextFrameHasTheSameSpeed() {
        var queue = DownloadQueue()
        queue.fired(fired(1, 60))
        queue.fired(fired(2, 60))
        _ = queue.arrived(image("1.JPG", 60, time: "2026:11:24 10:00:01"))
        // The RAW of the same capture: the frame has no RAW yet and the times agree.
        let raw = queue.arrived(image("1.ARW", 60, time: "2026:11:24 10:00:01"))
        #expect(raw.verdict == .frame(position(1)) && raw.complete.isEmpty)
        // The next JPEG goes to frame 2: frame 1 has its JPEG already.
        let next = queue.arrived(image("2.JPG", 60, time: "2026:11:24 10:00:02"))
        #expect(next.verdict == .frame(position(2)))
        #expect(next.complete.first?.images.map(\.fileName) == ["1.JPG", "1.ARW"])
    }

    @Test func aRawWhoseTimeDiffersIsNotPairedWithTheJPEG() {
        var queue = DownloadQueue()
        queue.fired(fired(1, 60))
        queue.fired(fired(2, 60))
        _ = queue.arrived(image("1.JPG", 60, time: "2026:11:24 10:00:01"))
        // Frame 1's RAW never came; this RAW is frame 2's (its JPEG was lost).
        let raw = queue.arrived(image("2.ARW", 60, time: "2026:11:24 10:00:09"))
        #expect(raw.verdict == .frame(position(2)))
        #expect(raw.complete.map(\.position) == [position(1)])
    }

    @Test func aSkippedFrameIsMissingAndTheLaterFrameStillGetsItsFile() {
        var queue = DownloadQueue()
        queue.fired(fired(1, 1000))
        queue.fired(fired(2, 500))
        queue.fired(fired(3, 250))
        _ = queue.arrived(image("A.JPG", 1000))
        let settled = queue.arrived(image("C.JPG", 250))
        #expect(settled.verdict == .frame(position(3)))
        #expect(settled.complete.map(\.position) == [position(1)])
        #expect(settled.missing.map(\.position) == [position(2)])
    }

    @Test func anImageOfNoWaitingFrameIsUnmatchedAndChangesNothing() {
        var queue = DownloadQueue()
        queue.fired(fired(1, 1000))
        let settled = queue.arrived(image("X.JPG", 4))
        guard case .unmatched(let reason)? = settled.verdict else {
            Issue.record("expected unmatched, got \(String(describing: settled.verdict))")
            return
        }
        #expect(reason == "it records 1/4, and no waiting frame (1/1000) was shot so")
        #expect(queue.count == 1 && queue.waiting[0].images.isEmpty)
        var empty = DownloadQueue()
        #expect(empty.arrived(image("Y.JPG", 4)).verdict != nil)
    }

    @Test func anImageWithoutAnExposureTimeGoesToTheFirstFrameLackingItsKind() {
        var queue = DownloadQueue()
        queue.fired(fired(1, 1000))
        #expect(queue.arrived(image("A.JPG", nil)).verdict == .frame(position(1)))
    }

    @Test func aBulbFrameMatchesTheTimeItWasHeld() {
        var queue = DownloadQueue()
        queue.fired(
            .init(position: position(1), setting: .bulb, expected: .bulb(held: .seconds(40))))
        let close = SavedImage(
            fileName: "B.ARW", path: "/x/B.ARW", byteCount: 1, exposure: ShutterSpeed(numerator: 401, denominator: 10))
        #expect(queue.arrived(close).verdict == .frame(position(1)))
    }

    @Test func drainedReportsFramesWithoutFilesAsMissing() {
        var queue = DownloadQueue()
        queue.fired(fired(1, 1000))
        queue.fired(
            .init(position: position(2), setting: .timed(speed(500)), expected: .timed(speed(500)), confirmed: false))
        _ = queue.arrived(image("A.JPG", 1000))
        let end = queue.drained()
        #expect(end.complete.map(\.position) == [position(1)])
        #expect(end.missing.map(\.position) == [position(2)] && end.missing[0].confirmed == false)
    }

    @Test(arguments: [("DSC1.JPG", ImageKind.picture), ("DSC1.ARW", .raw), ("dsc1.hif", .picture), ("x.bin", .other)])
    func kindsComeFromTheExtension(name: String, kind: ImageKind) {
        #expect(ImageKind(fileName: name) == kind)
    }
}
