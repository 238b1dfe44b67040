import Exposure
import Foundation
import ShootKit

/// One key of the defaults file: the option it is the default of, and how its value is checked.
///
/// Every value goes through the parser of its flag (`PlanCommand.options`, `CameraTarget(parsing:)`), so the
/// file accepts exactly what the command line accepts and says the same thing about what it refuses.
struct ConfigKey: Sendable {
    /// The key as written in the file (`frames`).
    let name: String
    /// The command-line option it gives the default of (`frames` for `--frames`).
    let option: String
    /// Whether the option is a flag (`dedupe = yes` gives `--dedupe`).
    let isFlag: Bool
    /// The flag that turns a flag key off on the command line (`--no-dedupe`), so a flag always wins.
    var negation: String? { isFlag ? "no-" + option : nil }
    /// What the value means, for `hdrshoot config` and the man page.
    let help: String
    /// The built-in default, shown by `hdrshoot config` when neither a flag nor the file sets it.
    let builtIn: String
    /// Commands that take the option but not this default (`resume` reconnects to the shoot's own camera).
    let excludedCommands: Set<String>
    /// Whether a `[camera ...]` section may set it (a section cannot choose the camera it is for).
    var allowedInSection: Bool { name != "camera" }
    /// Checks `value` (`scale` is the file's scale in the same scope, for `longest`); throws the flag's message.
    let validate: @Sendable (_ value: String, _ scale: String?) throws(UsageError) -> Void

    /// Every key, in the order `hdrshoot config` lists them.
    static let all: [ConfigKey] = [
        ConfigKey(
            name: "camera", option: "camera", isFlag: false,
            help: "The camera's address, or 'simulator' (run, camera).", builtIn: "the last one used",
            excludedCommands: ["resume"]
        ) { value, _ throws(UsageError) in _ = try CameraTarget(parsing: value, command: "config") },
        planKey("frames", help: "Frames per set, 2 to 15.", builtIn: "5"),
        planKey("ev", help: "EV between frames: 0.3 to 3 in thirds, or 1.5, 2.5.", builtIn: "1"),
        planKey("scale", help: "Shutter-speed scale: third or half.", builtIn: "third"),
        planKey("order", help: "Shooting order: fast-first or slow-first.", builtIn: "fast-first"),
        ConfigKey(
            name: "dedupe", option: "dedupe", isFlag: true,
            help: "Shoot the frame two sets share once (in the file: yes or no).", builtIn: "no", excludedCommands: []
        ) { value, _ throws(UsageError) in _ = try boolean(value) },
        planKey("longest", help: "Longest exposure to plan (bulb past 30\", up to 30').", builtIn: "4'"),
        ConfigKey(
            name: "output", option: "output", isFlag: false,
            help: "Folder that holds the shoots' folders (hdrshoot-<date>-<time> inside it).",
            builtIn: "the current folder", excludedCommands: []
        ) { value, _ throws(UsageError) in _ = try outputRoot(value, home: nil) },
        ConfigKey(
            name: "transfer", option: "transfer", isFlag: false,
            help: "Which images to download: all, jpeg or none (run, resume).", builtIn: "all",
            excludedCommands: []
        ) { value, _ throws(UsageError) in
            guard transferChoices.contains(value) else {
                throw UsageError("'\(value)' is not a transfer choice; use all, jpeg or none")
            }
        },
        // A camera with Access Authentication on, best in its `[camera ADDRESS]` section (issue 33). The password
        // itself never goes in this file: it names the password file, which is checked (owner, mode 0600) when read.
        ConfigKey(
            name: "ssh", option: "ssh", isFlag: true,
            help: "Reach the camera through SSH (in the file: yes or no; camera, run, resume, serve).", builtIn: "no",
            excludedCommands: []
        ) { value, _ throws(UsageError) in _ = try boolean(value) },
        ConfigKey(
            name: "ssh-user", option: "ssh-user", isFlag: false,
            help: "The user set in the camera's Access Authentication menu.", builtIn: "none", excludedCommands: []
        ) { value, _ throws(UsageError) in
            guard !value.isEmpty, !value.contains(where: \.isWhitespace) else {
                throw UsageError("'\(value)' is not a user name")
            }
        },
        ConfigKey(
            name: "ssh-password-file", option: "ssh-password-file", isFlag: false,
            help: "The file holding the camera's SSH password (yours alone, mode 0600).",
            builtIn: "asked on the terminal", excludedCommands: []
        ) { value, _ throws(UsageError) in
            guard value.hasPrefix("/") else {
                throw UsageError("'\(value)' is not an absolute path; write it like /home/me/.config/hdrshoot/a7v.pass")
            }
        },
        ConfigKey(
            name: "ssh-fingerprint", option: "ssh-fingerprint", isFlag: false,
            help: "The camera's host key fingerprint as its menu shows it (SHA256:...).",
            builtIn: "asked on first contact", excludedCommands: []
        ) { value, _ throws(UsageError) in
            guard value.hasPrefix("SHA256:"), value.count > 7 else {
                throw UsageError("'\(value)' is not a fingerprint; write it as the camera shows it, SHA256:...")
            }
        },
        // Not options of any command: the session logs' rotation (SessionLogging reads them).
        ConfigKey(
            name: "log-max-size", option: "log-max-size", isFlag: false,
            help: "Most the session logs may take together (50MB, 500KB, bytes).", builtIn: "50MB",
            excludedCommands: []
        ) { value, _ throws(UsageError) in
            guard SessionLogLimits.bytes(value) != nil else {
                throw UsageError("'\(value)' is not a size; write it like 50MB, 500KB or 1000000")
            }
        },
        ConfigKey(
            name: "log-max-age", option: "log-max-age", isFlag: false,
            help: "How long a session log is kept (30d, 12h).", builtIn: "30d", excludedCommands: []
        ) { value, _ throws(UsageError) in
            guard SessionLogLimits.age(value) != nil else {
                throw UsageError("'\(value)' is not an age; write it like 30d or 12h")
            }
        }
    ]

    /// The values `transfer` accepts, as the `--transfer` option of `run` and `resume` takes them.
    static let transferChoices = ["all", "jpeg", "none"]

    /// The key called `name`.
    static func named(_ name: String) -> ConfigKey? { all.first { $0.name == name } }

    /// A key checked by `hdrshoot plan`'s own option parsing: the value is parsed as its flag would be, beside
    /// two valid readings.
    private static func planKey(_ name: String, help: String, builtIn: String) -> ConfigKey {
        ConfigKey(
            name: name, option: name, isFlag: false, help: help, builtIn: builtIn, excludedCommands: []
        ) { value, scale throws(UsageError) in
            var arguments = ParsedArguments(command: "plan")
            arguments.set("shadow", to: "1/60")
            arguments.set("highlight", to: "1/60")
            if name != "scale", let scale, ShutterScale(rawValue: scale) != nil { arguments.set("scale", to: scale) }
            arguments.set(name, to: value)
            do throws(UsageError) {
                _ = try PlanCommand.options(from: arguments)
            } catch {
                // The flag's message starts `--frames: `; the file's line names the key itself.
                let prefix = "--\(name): "
                let message = error.message
                throw UsageError(message.hasPrefix(prefix) ? String(message.dropFirst(prefix.count)) : message)
            }
        }
    }

    /// `yes`/`no` and their usual spellings.
    static func boolean(_ value: String) throws(UsageError) -> Bool {
        switch value.lowercased() {
        case "yes", "true", "on", "1": return true
        case "no", "false", "off", "0": return false
        default: throw UsageError("'\(value)' is not yes or no")
        }
    }

    /// The `output` root as an absolute path: `~/` is the home folder; a relative path is refused (the file
    /// is read from any folder), and so is a path that is a file.
    static func outputRoot(_ value: String, home: String?) throws(UsageError) -> String {
        var path = value
        if path == "~" || path.hasPrefix("~/") {
            let home = home ?? ProcessInfo.processInfo.environment["HOME"] ?? ""
            guard !home.isEmpty else { throw UsageError("'\(value)' needs HOME, which is not set") }
            path = home + path.dropFirst()
        }
        guard path.hasPrefix("/") else {
            throw UsageError("'\(value)' is not an absolute folder; write it like /home/me/Pictures or ~/Pictures")
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw UsageError("'\(value)' is a file, not a folder")
        }
        return path
    }
}
