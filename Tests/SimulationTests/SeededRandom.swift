/// The world's only randomness: SplitMix64 (Steele, Lea, Flood 2014), seeded, splittable, no Foundation.
///
/// Each part of the world (plan, body, faults) draws from its own split, so adding a draw to one part does not
/// shift the others: a seed keeps meaning the same field day as the campaign grows.
struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// An independent generator for one part of the world, named so the split is stable.
    mutating func split(_ salt: UInt64) -> SeededRandom { SeededRandom(seed: next() ^ (salt &* 0xD6E8_FEB8_6659_FD93)) }

    /// True with probability `chance` (0...1).
    mutating func chance(_ chance: Double) -> Bool { Double(next() >> 11) / Double(1 << 53) < chance }
}
