import Foundation
import Shooting

/// `hdrshoot merge`: fuses every finished set of a shoot with align_image_stack and enfuse, the same steps as
/// each set's `merge.sh`, as child processes.
enum MergeCommand {
    /// The command's declaration.
    static let spec = CommandSpec(
        name: "merge",
        abstract: "Merge each finished set with align_image_stack and enfuse (set-NN/merged.tif).",
        discussion: """
            Reads the shoot's manifest.json and merges exactly the files each finished set lists (a frame shared
            with a neighbouring set included, the JPEG of a RAW+JPEG pair; never unmatched/ or earlier/): first
            align_image_stack -a aligns them, then enfuse fuses them into set-NN/merged.tif (or .jpg). One line
            per set. Without a folder: the current folder when it holds a manifest.json, else the last shoot's.
            Needs enfuse and align_image_stack (Debian: enfuse, hugin-tools; exit 69 when missing). Frames that
            cannot be aligned (too few control points) are not merged unless --no-align is given. RAW-only sets
            need converting first. Exit status: 0 every set merged, 1 a set was not.
            """,
        options: [
            .value("set", placeholder: "<n>", help: "Merge only this set."),
            .flag("align", help: "Align the frames with align_image_stack first (the default)."),
            .flag("no-align", help: "Fuse the frames as they are (a tripod that never moved)."),
            .value("jobs", placeholder: "<n>", help: "Sets merged at the same time.", default: "1"),
            .value("format", placeholder: "<tif|jpg>", help: "The merged image's format.", default: "tif"),
            .value(
                "state-dir", placeholder: "<dir>", help: "Where shoot journals are kept (to find the last shoot).",
                default: "$XDG_STATE_HOME/hdrshoot")
        ],
        positional: PositionalSpec(
            placeholder: "[<folder>]", help: "The shoot's output folder (default: see above).", isDirectory: true),
        run: run
    )

    /// How one set ended.
    enum Outcome: Sendable, Equatable {
        /// `merged.tif` written.
        case merged(file: String, frames: Int, aligned: Bool)
        /// align_image_stack failed; the reason in a few words.
        case notAligned(reason: String)
        /// enfuse failed, with its last line.
        case fuseFailed(reason: String)
        /// The set has RAW files without JPEGs.
        case needsConversion(files: [String])
    }

    @Sendable private static func run(_ arguments: ParsedArguments, _ context: CommandContext) async throws -> ExitCode
    {
        if arguments.flag("align") && arguments.flag("no-align") {
            throw UsageError("--align and --no-align contradict each other; give one", command: arguments.command)
        }
        let align = !arguments.flag("no-align")
        let jobs = try arguments.value("jobs", default: 1) { text in
            guard let jobs = Int(text), (1...64).contains(jobs) else {
                throw UsageError("'\(text)' is not a number of jobs; use 1 to 64")
            }
            return jobs
        }
        let format = try arguments.value("format", default: "tif") { text in
            guard ["tif", "jpg"].contains(text) else { throw UsageError("'\(text)' is not a format; use tif or jpg") }
            return text
        }
        let wanted = try arguments.value("set", default: Int?.none) { text in
            guard let set = Int(text), set >= 1 else {
                throw UsageError("'\(text)' is not a set number; use 1, 2, ...")
            }
            return set
        }
        let folder = try await shootFolder(arguments)
        let output = context.output
        // A shoot, or a series: one shoot per repetition folder, merged in order.
        var work: [(prefix: String, folder: String, sets: [MergeSet])] = []
        var chosenCount = 0
        for shoot in try await shoots(in: folder) {
            let chosen = (shoot.manifest.sets ?? []).filter { wanted == nil || $0.set == wanted }
            chosenCount += chosen.count
            var sets: [MergeSet] = []
            for bracket in chosen {
                if let set = MergeSet(bracket) {
                    sets.append(set)
                } else {
                    output.writeOut(
                        "\(shoot.prefix)set \(bracket.set): not finished, skipped (hdrshoot resume shoots the rest)\n")
                }
            }
            work.append((shoot.prefix, shoot.folder, sets))
        }
        if let wanted, chosenCount == 0 {
            throw UsageError("the shoot has no set \(wanted)", command: arguments.command)
        }
        let tools = try MergeTools(
            finding: align ? [MergeTools.alignImageStack, MergeTools.enfuse] : [MergeTools.enfuse],
            environment: ProcessInfo.processInfo.environment)
        var failed: [String] = []
        var unaligned = false
        for (prefix, shootFolder, sets) in work {
            let outcomes = await mergeAll(sets, jobs: jobs, in: shootFolder, tools: tools, align: align, format: format)
            {
                set, outcome in output.writeOut(prefix + line(set, outcome) + "\n")
            }
            for set in sets {
                switch outcomes[set.set] {
                case .merged: continue
                case .notAligned: unaligned = true
                default: break
                }
                failed.append("\(prefix)set \(set.set)")
            }
        }
        guard failed.isEmpty else {
            throw MergeError.setsFailed(
                failed: failed, unaligned: unaligned, total: work.map(\.sets.count).reduce(0, +))
        }
        return .success
    }

    /// The shoots in `folder`: its own manifest, or for an interval series (whose manifest lists repetitions)
    /// each `rep-NNN` folder's, with the prefix its progress lines get (`rep-001 `).
    static func shoots(in folder: String) async throws -> [(prefix: String, folder: String, manifest: ShootManifest)] {
        if let manifest = await ShootManifest.load(from: folder), manifest.sets != nil {
            return [("", folder, manifest)]
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var shoots: [(prefix: String, folder: String, manifest: ShootManifest)] = []
        for name in names.filter({ $0.hasPrefix("rep-") }).sorted() {
            let repetition = folder + "/" + name
            if let manifest = await ShootManifest.load(from: repetition), manifest.sets != nil {
                shoots.append((name + " ", repetition, manifest))
            }
        }
        guard !shoots.isEmpty else { throw MergeError.noManifest(path: folder) }
        return shoots
    }

    /// The folder given, else the current folder when it holds a manifest, else the last shoot's output folder.
    static func shootFolder(_ arguments: ParsedArguments) async throws -> String {
        if let given = arguments.positional { return RunCommand.absolutePath(given) }
        let here = FileManager.default.currentDirectoryPath
        if FileManager.default.fileExists(atPath: here + "/" + ShootManifest.fileName) { return here }
        let store = JournalStore(directory: try JournalStore.resolveDirectory(option: arguments.string("state-dir")))
        guard let latest = try await store.latest() else {
            throw UsageError(
                "no folder given, none here, and no shoot recorded; give the shoot's output folder",
                command: arguments.command)
        }
        return latest.outputDirectory
    }

    /// Merges `sets`, at most `jobs` at a time, reporting each as it ends; returns every outcome by set.
    static func mergeAll(
        _ sets: [MergeSet], jobs: Int, in folder: String, tools: MergeTools, align: Bool, format: String,
        report: @escaping @Sendable (MergeSet, Outcome) -> Void
    ) async -> [Int: Outcome] {
        await withTaskGroup(of: (Int, Outcome).self) { group in
            var outcomes: [Int: Outcome] = [:]
            var pending = sets[...]
            func start() {
                guard let set = pending.popFirst() else { return }
                group.addTask {
                    let outcome = await merge(set, in: folder, tools: tools, align: align, format: format)
                    report(set, outcome)
                    return (set.set, outcome)
                }
            }
            for _ in 0..<jobs { start() }
            while let (set, outcome) = await group.next() {
                outcomes[set] = outcome
                start()
            }
            return outcomes
        }
    }

    /// The steps of `merge.sh` for one set: align_image_stack -a into a temporary folder, then enfuse.
    static func merge(
        _ set: MergeSet, in folder: String, tools: MergeTools, align: Bool, format: String
    ) async -> Outcome {
        guard !set.needsConversion else { return .needsConversion(files: set.rawOnly) }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("hdrshoot-merge-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        var inputs = set.images
        if align {
            let prefix = work.appendingPathComponent("aligned_").path
            let aligned = await tools.run(
                MergeTools.alignImageStack, ["-a", prefix] + set.images, in: folder,
                log: work.appendingPathComponent("align.log"))
            inputs = set.images.indices.map { prefix + String(format: "%04d.tif", $0) }
            let complete = inputs.allSatisfy { FileManager.default.fileExists(atPath: $0) }
            guard aligned.status == 0, complete else {
                return .notAligned(reason: alignmentReason(aligned.log))
            }
        }
        let file = "\(set.folder)/merged.\(format)"
        let fused = await tools.run(
            MergeTools.enfuse, ["-o", file] + inputs, in: folder, log: work.appendingPathComponent("enfuse.log"))
        guard fused.status == 0, FileManager.default.fileExists(atPath: folder + "/" + file) else {
            let last = fused.log.split(separator: "\n").last.map(String.init) ?? "exit status \(fused.status)"
            return .fuseFailed(reason: last)
        }
        return .merged(file: file, frames: set.images.count, aligned: align)
    }

    /// Why align_image_stack failed, in words: it finds too few control points in frames with little detail.
    static func alignmentReason(_ log: String) -> String {
        let lowered = log.lowercased()
        let patterns = ["control point", "feature point", "optimization", "kernel longer than line", "terminate called"]
        if patterns.contains(where: { lowered.contains($0) }) {
            return "too few control points (the frames have too little detail in common)"
        }
        return log.split(separator: "\n").last.map(String.init) ?? "align_image_stack failed"
    }

    /// The progress line of one set.
    static func line(_ set: MergeSet, _ outcome: Outcome) -> String {
        switch outcome {
        case .merged(let file, let frames, let aligned):
            "set \(set.set): merged \(frames) frames\(aligned ? ", aligned," : "") into \(file)"
        case .notAligned(let reason):
            "set \(set.set): align_image_stack could not align the frames: \(reason); not merged "
                + "('hdrshoot merge --no-align' merges them unaligned)"
        case .fuseFailed(let reason):
            "set \(set.set): enfuse failed: \(reason)"
        case .needsConversion(let files):
            "set \(set.set): RAW files only (\(files.joined(separator: ", "))); convert them to TIFF or JPEG first "
                + "(darktable-cli, rawtherapee-cli), then merge those"
        }
    }
}
