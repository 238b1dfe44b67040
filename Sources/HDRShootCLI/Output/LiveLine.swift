/// The live progress line of a terminal, fitted to its width.
///
/// `Set 2/3  frame 3/5  1/30  capturing  [======    ]  9 fired · 7/15 saved  0:05 elapsed  ~0:07 left`: fired
/// (released, the image maybe still in the camera) and saved (on disk) said apart; the bar counts saved frames.
/// When the terminal is narrower the parts go in this order: the bar shrinks, "fired" and "saved", the elapsed
/// time, the set and frame, the bar, the speed, the count of saved frames, the phase; the time left stays to
/// the last.
struct LiveLine: Sendable, Hashable {
    /// The set shown, from 1.
    var set: Int
    /// How many sets the plan has.
    var sets: Int
    /// The frame shown, from 1 within its set.
    var frame: Int
    /// How many frames its set has.
    var frames: Int
    /// The camera setting of the frame (`1/30`, `4"`, `BULB 40"`).
    var speed: String
    /// What is happening: `capturing`, `reconnecting in 5 s`, `paused: network lost`.
    var phase: String
    /// Frames saved.
    var completed: Int
    /// Frames in the plan.
    var total: Int
    /// Seconds since the run started.
    var elapsed: Double
    /// Seconds the shoot still needs.
    var left: Double
    /// The repetition of an interval series (`Rep 3/20`), shown first while there is room; nil for one bracket.
    var repetition: String? = nil
    /// Frames fired (saved or waiting in the camera); nil when not known (taken as the saved count).
    var fired: Int? = nil

    /// The bar's narrowest inner width (a bar narrower than this is left out).
    static let narrowestBar = 10
    /// The bar's widest inner width (what room is left over widens it up to this).
    static let widestBar = 30

    /// The width of the longest usual phase (`setting speed`); shorter ones are padded to it.
    static let phaseWidth = 13

    private enum Part {
        case repetition, whereLong, whereShort, speed, phase, bar, countLong, count, elapsed, left
    }

    /// The layouts from the fullest down; the first that fits wins.
    private static let layouts: [[Part]] = [
        [.whereLong, .speed, .phase, .bar, .countLong, .elapsed, .left],
        [.whereLong, .speed, .phase, .bar, .count, .elapsed, .left],
        [.whereShort, .speed, .phase, .bar, .count, .elapsed, .left],
        [.whereShort, .speed, .phase, .bar, .count, .left],
        [.speed, .phase, .bar, .count, .left],
        [.speed, .phase, .count, .left],
        [.phase, .count, .left],
        [.phase, .left],
        [.left]
    ]

    /// The line in at most `width` characters (pass the terminal's columns minus one, so it never wraps).
    func render(width: Int) -> String {
        let separator = "  "
        // A series' repetition leads while it fits; then the one-bracket layouts, unchanged.
        let withRepetition = repetition == nil ? [] : Self.layouts.prefix(5).map { [Part.repetition] + $0 }
        for layout in withRepetition + Self.layouts {
            let fixed = layout.filter { $0 != .bar }.map(text)
            let minimum =
                fixed.reduce(0) { $0 + $1.count } + separator.count * (layout.count - 1)
                + (layout.contains(.bar) ? Self.narrowestBar + 2 : 0)
            guard minimum <= width else { continue }
            let barWidth = min(Self.widestBar, Self.narrowestBar + (width - minimum))
            return layout.map { $0 == .bar ? bar(width: barWidth) : text($0) }.joined(separator: separator)
        }
        return String(text(.left).prefix(max(0, width)))
    }

    private func text(_ part: Part) -> String {
        switch part {
        case .repetition: repetition ?? ""
        case .whereLong: "Set \(set)/\(sets)  frame \(frame)/\(frames)"
        case .whereShort: "Set \(set)/\(sets) frame \(frame)/\(frames)"
        case .speed: speed
        // Padded to the usual phases' width and the total's, so the bar stays put while a frame goes through.
        case .phase:
            phase.count < Self.phaseWidth ? phase + String(repeating: " ", count: Self.phaseWidth - phase.count) : phase
        case .bar: bar(width: Self.narrowestBar)
        case .countLong:
            padded("\(fired ?? completed)", to: "\(total)".count) + " fired · "
                + padded("\(completed)/\(total)", to: "\(total)/\(total)".count) + " saved"
        case .count: padded("\(completed)/\(total)", to: "\(total)/\(total)".count)
        case .elapsed: "\(ShootText.clock(elapsed)) elapsed"
        case .left: "~\(ShootText.clock(left)) left"
        }
    }

    /// `text` with spaces before it up to `width` characters.
    private func padded(_ text: String, to width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }

    /// `[=======   ]`: the share of frames saved, `width` characters inside the brackets.
    private func bar(width: Int) -> String {
        let filled = total > 0 ? min(width, completed * width / total) : 0
        return "[" + String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled) + "]"
    }
}
