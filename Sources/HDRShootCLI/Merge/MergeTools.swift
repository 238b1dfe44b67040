import Foundation

/// The outside programs `hdrshoot merge` runs, found on `PATH`, and how one runs as a child process.
struct MergeTools: Sendable {
    /// A program and the Debian package that installs it.
    struct Tool: Sendable, Equatable {
        /// The program's name (`enfuse`).
        var name: String
        /// The Debian package that has it (`enfuse`, `hugin-tools`).
        var package: String
    }

    /// enfuse (Debian package `enfuse`).
    static let enfuse = Tool(name: "enfuse", package: "enfuse")
    /// align_image_stack (Debian package `hugin-tools`).
    static let alignImageStack = Tool(name: "align_image_stack", package: "hugin-tools")

    /// The executables found, by tool name.
    let paths: [String: String]

    /// Finds `tools` on `PATH`; throws `MergeError.missingTools` naming every one that is not there.
    init(finding tools: [Tool], environment: [String: String]) throws(MergeError) {
        let folders = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
        var paths: [String: String] = [:]
        var missing: [Tool] = []
        for tool in tools {
            let found = folders.map { $0 + "/" + tool.name }.first { FileManager.default.isExecutableFile(atPath: $0) }
            if let found { paths[tool.name] = found } else { missing.append(tool) }
        }
        guard missing.isEmpty else { throw .missingTools(missing) }
        self.paths = paths
    }

    /// What a finished child process left: its status and its output (standard output and error together).
    struct Finished: Sendable {
        /// The exit status, or 128 + the signal that ended it.
        var status: Int32
        /// Its output, for the message when it fails.
        var log: String
    }

    /// Runs `tool` with `arguments` in `directory`, its output going to `log` (a file, so a chatty tool never
    /// blocks on a full pipe), and waits for it off the cooperative pool.
    func run(_ tool: Tool, _ arguments: [String], in directory: String, log: URL) async -> Finished {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: paths[tool.name] ?? tool.name)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory, isDirectory: true)
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try? FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        let status: Int32 = await withCheckedContinuation { continuation in
            process.terminationHandler = { finished in
                let status = finished.terminationStatus
                continuation.resume(returning: finished.terminationReason == .uncaughtSignal ? 128 + status : status)
            }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(returning: 127)
            }
        }
        try? handle?.close()
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return Finished(status: status, log: text)
    }
}

/// Why `hdrshoot merge` cannot merge.
enum MergeError: Error, Sendable, Equatable {
    /// enfuse or align_image_stack is not on `PATH`.
    case missingTools([MergeTools.Tool])
    /// The folder has no readable `manifest.json`.
    case noManifest(path: String)
    /// Some merges failed (their lines said why: `bracket`, `rep-003 bracket`, `set 2`); `unaligned` when
    /// one of them could not be aligned under `--align`.
    case notMerged(failed: [String], unaligned: Bool, total: Int)
}

extension MergeError: CLIReportable {
    /// The line after `error: `.
    var cliMessage: String {
        switch self {
        case .missingTools(let tools):
            let names = tools.map(\.name).joined(separator: " and ")
            let packages = tools.map(\.package).joined(separator: " ")
            return
                "\(names) \(tools.count == 1 ? "is" : "are") not installed; install with: sudo apt install \(packages)"
        case .noManifest(let path):
            return "\(path) holds no shoot's manifest.json; give the output folder of an hdrshoot shoot or series"
        case .notMerged(let failed, let unaligned, let total):
            let hint = unaligned ? "; without --align, frames that cannot be aligned are merged as shot" : ""
            return "\(failed.count) of \(total) merges failed (\(failed.joined(separator: ", ")))\(hint)"
        }
    }

    /// 69 for a missing tool, 64 for a folder that is no shoot, 1 for a merge that failed.
    var exitCode: ExitCode {
        switch self {
        case .missingTools: .unavailable
        case .noManifest: .usage
        case .notMerged: .failure
        }
    }
}
