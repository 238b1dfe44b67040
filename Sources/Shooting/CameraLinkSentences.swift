/// The sentences both protocols' errors say about the link to the camera (`SonyCameraError` over PTP/IP,
/// `LegacySonyCameraError` over the Camera Remote API): one source, so the two say a lost link the same way.
/// Each error keeps its own advice where the protocols differ (which menu item to turn on).
package enum CameraLinkSentences {
    /// `1 attempt`, `3 attempts`.
    package static func attempts(_ count: Int) -> String {
        count == 1 ? "1 attempt" : "\(count) attempts"
    }

    /// The address could not be reached at all: the underlying failure, then the two things to check.
    package static func unreachable(address: String, underlying: some CustomStringConvertible) -> String {
        "\(underlying); is this computer on the camera's Wi-Fi network, and is \(address) the right address?"
    }

    /// An operation was asked of a camera that is not connected.
    package static let notConnected = "not connected to the camera"

    /// The link dropped while `during` was in progress.
    package static func connectionLost(during: String, underlying: some CustomStringConvertible) -> String {
        "lost the connection to the camera during \(during) (\(underlying))"
    }
}
