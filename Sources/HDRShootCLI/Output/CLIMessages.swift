import ShootKit

/// The sentences the shoot's updates carry, from the CLI's error tables (`CLIReportable`, `ConnectText`).
struct CLIMessages: ShootMessages {
    /// An error's one line.
    func message(for error: any Error) -> String { HDRShoot.message(for: error) }

    /// A connection failure's cause in a few words.
    func connectFailure(_ error: any Error) -> String { ConnectText.failure(error) }
}
