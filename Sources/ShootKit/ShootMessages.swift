/// Where the sentences of a shoot's updates come from: every error an update carries is said through this, so
/// the terminal and the phone remote say the same thing.
///
/// The tables live with the errors' front end today (the CLI's `CLIReportable` tables); the layer only asks.
package protocol ShootMessages: Sendable {
    /// The sentence of `error`, as an `error: …` line would say it (without the prefix).
    func message(for error: any Error) -> String
    /// Why a connection attempt failed, in a few words (`no answer (connection refused)`).
    func connectFailure(_ error: any Error) -> String
    /// The sentence of a blocker (a default in `ShootBlocker.swift`).
    func sentence(for blocker: ShootBlocker) -> String
}
