/// A command to a shoot, from any front end: `{"command":"pause"}`, `{"command":"answer","answer":"late"}`.
package struct ShootCommand: Sendable, Hashable, Codable {
    /// The commands a shoot takes.
    package enum Name: String, Sendable, Hashable, Codable, CaseIterable {
        /// Agree to the proposal (state proposed).
        case confirm
        /// Refuse the proposal: nothing is shot (state proposed).
        case decline
        /// Answer the question (state asking).
        case answer
        /// Hold shooting before the next frame.
        case pause
        /// Lift the hold.
        case resume
        /// Stop after the frame in flight (before the first frame: decline).
        case stop
        /// Abandon the frame in flight (it is shot again on resume).
        case abandon
    }

    /// Which command.
    package var command: Name
    /// The answer (`answer` only).
    package var answer: String?

    /// A command without an argument.
    package init(_ command: Name) {
        self.command = command
    }

    /// An answer to the question asked.
    package static func answer(_ answer: String) -> ShootCommand {
        var command = ShootCommand(.answer)
        command.answer = answer
        return command
    }

    /// `confirm`.
    package static let confirm = ShootCommand(.confirm)
    /// `decline`.
    package static let decline = ShootCommand(.decline)
    /// `pause`.
    package static let pause = ShootCommand(.pause)
    /// `resume`.
    package static let resume = ShootCommand(.resume)
    /// `stop`.
    package static let stop = ShootCommand(.stop)
    /// `abandon`.
    package static let abandon = ShootCommand(.abandon)
}
