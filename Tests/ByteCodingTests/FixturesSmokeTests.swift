import TestSupport
import Testing

@Suite(.enabled(if: Fixtures.available, Fixtures.skipReason))
struct FixturesSmokeTests {
    @Test func hexAndBinaryCopiesOfAFixtureAgree() throws {
        let binary = try Fixtures.load("sony/rx100m7_InitCommandAck_a.packet.bin")
        let hex = try Fixtures.hexLines("sony/rx100m7_InitCommandAck_a.packet.hex").flatMap { $0 }
        #expect(binary.count == 56)
        #expect(binary == hex)
    }
}
