import Exposure

/// A limit of this body that hdrshoot learned from what it did (issue 32, point 5), as a typed record: the
/// session log keeps it (`kind: learned`), `hdrshoot log` shows it, and a replay of the log gives the simulated
/// body the same limit. What the photographer is told of it is the application layer's sentence.
package enum LearnedLimit: Sendable, Hashable {
    /// The body holds at most `captures` images in its buffer: it took no release with that many waiting.
    /// `remembered`: an earlier shoot of this body (same serial) learned it; otherwise this shoot did.
    case bufferCapacity(captures: Int, remembered: Bool)
    /// The body takes no new shutter speed while images wait in its buffer: they are downloaded before each
    /// speed change from then on.
    case speedChangeIgnoredWhileImagesWait
    /// The shutter of a body whose 0xD20D names no speeds reaches from `slowest` to `fastest`; `remembered`: an
    /// earlier shoot of this body found it.
    case shutterRange(slowest: ShutterSpeed, fastest: ShutterSpeed, remembered: Bool)
    /// The longest a release of this session took, past its exposure, to show that it fired (0xC206, an image
    /// announced, 0xD215 rising, shots left dropping): the grace before a fetch behind a release is twice it.
    case evidenceLatency(Duration)

    /// The record's name in the session log's `limit` field.
    package var name: String {
        switch self {
        case .bufferCapacity: "bufferCapacity"
        case .speedChangeIgnoredWhileImagesWait: "speedChangeIgnoredWhileImagesWait"
        case .shutterRange: "shutterRange"
        case .evidenceLatency: "evidenceLatency"
        }
    }
}
