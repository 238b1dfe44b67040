/// One `--auto` probe frame as the manifest and the JSON output list it.
package struct ProbeRecord: Codable, Sendable, Equatable {
    /// Its speed.
    package var speed: String
    /// Its file, relative to the output folder (`probes/DSC00001_1-250s.JPG`).
    package var file: String
    /// Whether it held the highlights.
    package var holdsHighlights: Bool
    /// Whether it opened the shadows.
    package var opensShadows: Bool

    /// A probe's record.
    package init(speed: String, file: String, holdsHighlights: Bool, opensShadows: Bool) {
        self.speed = speed
        self.file = file
        self.holdsHighlights = holdsHighlights
        self.opensShadows = opensShadows
    }
}
