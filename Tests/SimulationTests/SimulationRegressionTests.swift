import Testing

/// The seeds that found each bug of the campaign (docs/simulation.md), replayed on every run: each keeps every
/// promise now.
@Suite struct SimulationRegressionTests {
    /// Bug a: a lagging 0xD215 (`d215-lag`) read "no object" as "lost" while a frame's image still processed, and
    /// the frame was fired again (seed 24: 13 releases for 12 frames; seed 52: 9 for 6).
    @Test(arguments: [24, 52] as [UInt64])
    func aFrameStillProcessingBehindALaggingBufferCountIsNotFiredAgain(seed: UInt64) async throws {
        let (violations, report) = try await SimulationTests.day(seed)
        #expect(violations.isEmpty, Comment(rawValue: report))
    }

    /// Bug d: a `busy-while-buffered` body answered S2 down "busy" while an image waited; the run ended there, the
    /// frame recorded "may have fired", and every resume ended the same way (seeds 5, 30: "S2 down (0x9207) was
    /// answered 'device busy' 3 times", the shoot never finished).
    @Test(arguments: [5, 30] as [UInt64])
    func aReleaseRefusedWhileImagesWaitIsPressedAgainAfterTheDownload(seed: UInt64) async throws {
        let (violations, report) = try await SimulationTests.day(seed)
        #expect(violations.isEmpty, Comment(rawValue: report))
    }
}
