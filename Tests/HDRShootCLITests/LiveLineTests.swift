import Testing

@testable import HDRShootCLI

/// The live line at the widths terminals have: the time left always shows, other parts go first.
@Suite("Live progress line")
struct LiveLineTests {
    static let line = LiveLine(
        set: 2, sets: 3, frame: 3, frames: 5, speed: "1/30", phase: "capturing", completed: 7, total: 15, elapsed: 5,
        left: 7, fired: 9)

    @Test(arguments: [
        (
            120,
            "Set 2/3  frame 3/5  1/30  capturing      [============              ]   9 fired ·  7/15 saved  0:05 elapsed  ~0:07 left"
        ),
        (80, "Set 2/3 frame 3/5  1/30  capturing      [========          ]   7/15  ~0:07 left"),
        (60, "1/30  capturing      [=======          ]   7/15  ~0:07 left"),
        (40, "1/30  capturing       7/15  ~0:07 left")
    ])
    func aTerminalOfThisWidthShowsThisLine(columns: Int, expected: String) {
        let rendered = Self.line.render(width: columns - 1)
        #expect(rendered == expected)
        #expect(rendered.count <= columns - 1)
    }

    @Test(arguments: [40, 60, 80, 120])
    func theTimeLeftShowsWhateverThePhaseSays(columns: Int) {
        for phase in [
            "setting speed", "camera busy, retry in 2 s, then stop", "reconnecting in 10 s",
            "paused by you (p continues)"
        ] {
            var line = Self.line
            line.phase = phase
            let rendered = line.render(width: columns - 1)
            #expect(rendered.hasSuffix("~0:07 left"), "\(columns) columns: \(rendered)")
            #expect(rendered.count <= columns - 1, "\(columns) columns: \(rendered)")
        }
    }

    @Test func theBarStaysPutWhileAFrameGoesThroughItsPhases() {
        let widths = ["setting speed", "capturing", "saving", "saved"].map { phase in
            var line = Self.line
            line.phase = phase
            let rendered = line.render(width: 79)
            return rendered.firstIndex(of: "]").map { rendered.distance(from: rendered.startIndex, to: $0) }
        }
        #expect(Set(widths).count == 1, "\(widths)")
    }

    @Test func aTinyTerminalGetsTheTimeLeftCut() {
        #expect(Self.line.render(width: 5) == "~0:07")
    }

    @Test func aSeriesRepetitionLeadsWhileThereIsRoomAndGoesFirstWhenThereIsNot() {
        var line = LiveLine(
            set: 2, sets: 3, frame: 3, frames: 5, speed: "1/30", phase: "capturing", completed: 7, total: 15,
            elapsed: 10, left: 13)
        let single = line.render(width: 119)
        line.repetition = "Rep 3/20"
        let wide = line.render(width: 119)
        #expect(wide.hasPrefix("Rep 3/20  Set 2/3"))
        #expect(wide.hasSuffix("left"))
        // Narrow, the repetition is the first to go: the line is then a single bracket's.
        #expect(
            line.render(width: 39)
                == LiveLine(
                    set: 2, sets: 3, frame: 3, frames: 5, speed: "1/30", phase: "capturing", completed: 7, total: 15,
                    elapsed: 10, left: 13
                ).render(width: 39))
        #expect(!single.contains("Rep"))
    }
}
