@testable import HDRShootCLI

/// Runs `hdrshoot <arguments>` in-process, capturing both streams.
func runCLI(_ arguments: [String]) async -> CapturedRun {
    await HDRShoot.runCapturing(arguments)
}

/// Bad `plan` command lines, each with the start of the message it must print.
let badPlanInputs: [(arguments: [String], message: String)] = [
    (["plan", "--shdow", "1/4", "--highlight", "1/1000"], "error: unknown option '--shdow' (did you mean '--shadow'?)"),
    (["plan", "--shadow"], "error: option '--shadow' needs a value"),
    (["plan", "--shadow", "1/4", "--highlight"], "error: option '--highlight' needs a value"),
    (["plan", "--shadow", "abc", "--highlight", "1/1000"], "error: --shadow: 'abc' is not a shutter speed"),
    (
        ["plan", "--shadow", "1/4", "--highlight", "1/1000", "--frames", "0"],
        "error: --frames: '0' is not a frame count"
    ),
    (["plan", "--shadow", "1/4", "--highlight", "1/1000", "--ev", "-1"], "error: --ev: '-1' is not a bracket spacing"),
    (
        ["plan", "--shadow", "1/1000", "--highlight", "1/4"],
        "error: the shadow reading 1/1000 is faster than the highlight reading 1/4"
    ),
    (["plan", "--shadow", "0", "--highlight", "1/1000"], "error: --shadow: '0' is not a shutter speed"),
    (["plan", "--shadow", "60", "--highlight", "1/1000"], "error: --shadow: '60' is longer than 30\""),
    (["plan", "--highlight", "1/1000"], "error: missing required option '--shadow'"),
    (["plan", "--shadow=1/4", "--highlight=1/1000", "--json=yes"], "error: option '--json' does not take a value"),
    (
        ["plan", "--shadow", "1/4", "--highlight", "1/1000", "--scale", "quarter"],
        "error: --scale: 'quarter' is not a scale"
    ),
    (["plan", "--shadow", "1/4", "--highlight", "1/1000", "extra"], "error: unexpected argument 'extra'"),
    (["plan", "--shadow", "1/4", "--shadow", "1/2", "--highlight", "1/1000"], "error: option '--shadow' is given more"),
    (["plna"], "error: unknown command 'plna' (did you mean 'plan'?)"),
    (["--frobnicate"], "error: unknown option '--frobnicate'"),
    ([], "error: missing command")
]
