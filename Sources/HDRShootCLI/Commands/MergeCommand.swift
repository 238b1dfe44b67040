import Foundation
import ShootKit
import Shooting

/// `hdrshoot merge`: fuses each shoot's whole bracket (or, with `--per-set`, each finished set) with
/// align_image_stack and enfuse, the same steps as the shoot's `merge.sh`, as child processes.
enum MergeCommand {
    /// The command's declaration.
    static let spec = CommandSpec(
        name: "merge",
        abstract: "Merge the shoot's whole bracket with align_image_stack and enfuse into one merged.tif.",
        discussion: """
            The bracket is the unit: a plan's sets are camera-sized pieces of one exposure range, so hdrshoot
            merges every frame of the bracket into one HDR image, merged.tif beside manifest.json, from the
            shoot's manifest: each distinct exposure once (a frame two sets share is used once), the JPEG of a
            RAW+JPEG pair, an extension set of --check extend included; never unmatched/ or earlier/. An interval
            series merges each repetition's bracket into rep-NNN/merged.tif. First align_image_stack -a aligns
            the frames; when it finds too few control points (smooth walls, sky, a night scene), the frames are
            fused as shot and the line says "not aligned: too few control points; merged as shot" (--align makes
            alignment mandatory, --no-align skips it). Then enfuse fuses them. --per-set (or --set) merges each
            finished set on its own into set-NN/merged.tif instead. One line per merge. Without a folder: the
            current folder when it holds a manifest.json, else the last shoot's. Needs enfuse and
            align_image_stack (Debian: enfuse, hugin-tools; exit 69 when missing). RAW-only frames need
            converting first. Exit status: 0 every finished bracket merged, 1 one was not.
            """,
        options: [
            .flag("per-set", help: "Merge each finished set on its own (set-NN/merged.tif), not the whole bracket."),
            .value("set", placeholder: "<n>", help: "Merge only this set (implies --per-set)."),
            .flag("align", help: "Make alignment mandatory: frames that cannot be aligned are not merged."),
            .flag("no-align", help: "Fuse the frames as shot, without aligning them (a tripod that never moved)."),
            .value("jobs", placeholder: "<n>", help: "Merges run at the same time.", default: "1"),
            .value("format", placeholder: "<tif|jpg>", help: "The merged image's format.", default: "tif"),
            .value(
                "state-dir", placeholder: "<dir>", help: "Where shoot journals are kept (to find the last shoot).",
                default: "$XDG_STATE_HOME/hdrshoot")
        ],
        positional: PositionalSpec(
            placeholder: "[<folder>]", help: "The shoot's output folder (default: see above).", isDirectory: true),
        run: run
    )

    /// How far the frames were aligned.
    enum Alignment: Sendable, Equatable {
        /// align_image_stack aligned them.
        case aligned
        /// Not asked for (`--no-align`).
        case notTried
        /// align_image_stack could not align them (the reason in a few words), so they were fused as shot.
        case fellBack(reason: String)
    }

    /// How a merge ended.
    enum Outcome: Sendable, Equatable {
        /// The merged image written.
        case merged(file: String, frames: Int, alignment: Alignment)
        /// align_image_stack failed under `--align`; the reason in a few words.
        case notAligned(reason: String)
        /// enfuse failed, with its last line.
        case fuseFailed(reason: String)
        /// The stack has RAW files without JPEGs.
        case needsConversion(files: [String])
    }

    /// How alignment is asked for.
    enum AlignMode: Sendable, Equatable {
        /// Align, and fuse as shot when alignment fails (the default).
        case tryFirst
        /// Align, and fail when alignment fails (`--align`).
        case required
        /// Do not align (`--no-align`).
        case off
    }

    /// One merge to do: which shoot (the prefix its line gets, its folder) and what.
    struct Job: Sendable {
        /// `rep-001 ` for a series' repetition, else empty.
        var prefix: String
        /// The shoot's output folder.
        var folder: String
        /// What to fuse.
        var stack: MergeStack
    }

    @Sendable private static func run(_ arguments: ParsedArguments, _ context: CommandContext) async throws -> ExitCode
    {
        if arguments.flag("align") && arguments.flag("no-align") {
            throw UsageError("--align and --no-align contradict each other; give one", command: arguments.command)
        }
        let align: AlignMode = arguments.flag("no-align") ? .off : arguments.flag("align") ? .required : .tryFirst
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
        let perSet = arguments.flag("per-set") || wanted != nil
        let folder = try await shootFolder(arguments)
        let output = context.output
        // A shoot, or a series: one shoot per repetition folder, merged in order.
        var work: [Job] = []
        var chosenCount = 0
        for shoot in try await shoots(in: folder) {
            guard perSet else {
                switch MergeStack.bracket(of: shoot.manifest) {
                case .success(let stack):
                    work.append(Job(prefix: shoot.prefix, folder: shoot.folder, stack: stack))
                case .failure(.framesMissing(let saved, let total)):
                    output.writeOut(
                        "\(shoot.prefix)bracket: not finished (\(saved) of \(total) frames saved), skipped "
                            + "(hdrshoot resume shoots the rest)\n")
                }
                continue
            }
            let chosen = (shoot.manifest.sets ?? []).filter { wanted == nil || $0.set == wanted }
            chosenCount += chosen.count
            for bracket in chosen {
                if let stack = MergeStack(bracket) {
                    work.append(Job(prefix: shoot.prefix, folder: shoot.folder, stack: stack))
                } else {
                    output.writeOut(
                        "\(shoot.prefix)set \(bracket.set): not finished, skipped (hdrshoot resume shoots the rest)\n")
                }
            }
        }
        if let wanted, chosenCount == 0 {
            throw UsageError("the shoot has no set \(wanted)", command: arguments.command)
        }
        let tools = try MergeTools(
            finding: align == .off ? [MergeTools.enfuse] : [MergeTools.alignImageStack, MergeTools.enfuse],
            environment: ProcessInfo.processInfo.environment)
        let outcomes = await mergeAll(work, jobs: jobs, tools: tools, align: align, format: format) { job, outcome in
            output.writeOut(job.prefix + line(job.stack, outcome) + "\n")
        }
        var failed: [String] = []
        var unaligned = false
        for (index, job) in work.enumerated() {
            switch outcomes[index] {
            case .merged: continue
            case .notAligned: unaligned = true
            default: break
            }
            failed.append(job.prefix + job.stack.label)
        }
        guard failed.isEmpty else {
            throw MergeError.notMerged(failed: failed, unaligned: unaligned, total: work.count)
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

    /// Merges `work`, at most `jobs` at a time, reporting each as it ends; returns every outcome by index.
    static func mergeAll(
        _ work: [Job], jobs: Int, tools: MergeTools, align: AlignMode, format: String,
        report: @escaping @Sendable (Job, Outcome) -> Void
    ) async -> [Int: Outcome] {
        await withTaskGroup(of: (Int, Outcome).self) { group in
            var outcomes: [Int: Outcome] = [:]
            var pending = Array(work.enumerated())[...]
            func start() {
                guard let (index, job) = pending.popFirst() else { return }
                group.addTask {
                    let outcome = await merge(job.stack, in: job.folder, tools: tools, align: align, format: format)
                    report(job, outcome)
                    return (index, outcome)
                }
            }
            for _ in 0..<jobs { start() }
            while let (index, outcome) = await group.next() {
                outcomes[index] = outcome
                start()
            }
            return outcomes
        }
    }

    /// The steps of `merge.sh`: align_image_stack -a into a temporary folder (falling back to the frames as
    /// shot unless alignment is required), then enfuse.
    static func merge(
        _ stack: MergeStack, in folder: String, tools: MergeTools, align: AlignMode, format: String
    ) async -> Outcome {
        guard !stack.needsConversion else { return .needsConversion(files: stack.rawOnly) }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("hdrshoot-merge-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        var inputs = stack.images
        var alignment = Alignment.notTried
        if align != .off {
            let prefix = work.appendingPathComponent("aligned_").path
            let aligned = await tools.run(
                MergeTools.alignImageStack, ["-a", prefix] + stack.images, in: folder,
                log: work.appendingPathComponent("align.log"))
            let outputs = stack.images.indices.map { prefix + String(format: "%04d.tif", $0) }
            let complete = outputs.allSatisfy { FileManager.default.fileExists(atPath: $0) }
            if aligned.status == 0, complete {
                inputs = outputs
                alignment = .aligned
            } else if align == .required {
                return .notAligned(reason: alignmentReason(aligned.log))
            } else {
                alignment = .fellBack(reason: alignmentReason(aligned.log))
            }
        }
        let file = stack.output(format: format)
        let fused = await tools.run(
            MergeTools.enfuse, ["-o", file] + inputs, in: folder, log: work.appendingPathComponent("enfuse.log"))
        guard fused.status == 0, FileManager.default.fileExists(atPath: folder + "/" + file) else {
            let last = fused.log.split(separator: "\n").last.map(String.init) ?? "exit status \(fused.status)"
            return .fuseFailed(reason: last)
        }
        return .merged(file: file, frames: stack.images.count, alignment: alignment)
    }

    /// What align_image_stack's log says when it found too few control points (lower case; merge.sh greps
    /// for the same words).
    static let alignmentPatterns = MergeScript.alignmentPatterns

    /// Why align_image_stack failed, in words: it finds too few control points in frames with little detail.
    static func alignmentReason(_ log: String) -> String {
        let lowered = log.lowercased()
        if alignmentPatterns.contains(where: { lowered.contains($0) }) {
            return "too few control points"
        }
        return log.split(separator: "\n").last.map(String.init) ?? "align_image_stack failed"
    }

    /// The progress line of one merge.
    static func line(_ stack: MergeStack, _ outcome: Outcome) -> String {
        switch outcome {
        case .merged(let file, let frames, let alignment):
            let span = stack.range.map { " (\($0.shortest) to \($0.longest))" } ?? ""
            return switch alignment {
            case .aligned: "\(stack.label): merged \(frames) frames\(span), aligned, into \(file)"
            case .notTried: "\(stack.label): merged \(frames) frames\(span) into \(file)"
            case .fellBack(let reason):
                "\(stack.label): merged \(frames) frames\(span) into \(file); not aligned: \(reason); merged as shot"
            }
        case .notAligned(let reason):
            return "\(stack.label): align_image_stack could not align the frames: \(reason); not merged "
                + "(without --align they are merged as shot)"
        case .fuseFailed(let reason):
            return "\(stack.label): enfuse failed: \(reason)"
        case .needsConversion(let files):
            return "\(stack.label): RAW files only (\(files.joined(separator: ", "))); convert them to TIFF or JPEG "
                + "first (darktable-cli, rawtherapee-cli), then merge those"
        }
    }
}
