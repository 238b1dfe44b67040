import Foundation
import ShootKit
import Shooting

/// The defaults file applied to one command line: flags win, then the `[camera ...]` section of the camera
/// used, then the top of the file, then the built-in default.
struct ConfigDefaults: Sendable {
    /// Where an effective value came from, as `hdrshoot config` shows it.
    enum Source: Sendable, Equatable, CustomStringConvertible {
        /// Given on the command line.
        case flag
        /// A line of the config file.
        case file(path: String, line: Int)
        /// hdrshoot's own default.
        case builtIn

        /// `flag`, `/home/me/.config/hdrshoot/config:3`, `default`.
        var description: String {
            switch self {
            case .flag: "flag"
            case .file(let path, let line): "\(path):\(line)"
            case .builtIn: "default"
            }
        }
    }

    /// One key's value and where it came from.
    struct Effective: Sendable, Equatable {
        /// The key's name.
        var key: String
        /// The value as written (for `builtIn`, the default's description).
        var value: String
        /// Where it came from.
        var source: Source
    }

    /// The file, when there is one.
    let file: ConfigFile?
    /// The `[camera NAME]` section that matches the camera used, if any.
    let section: String?

    /// Reads the file of `environment` (nil when there is none), checking every value.
    static func loadFile(environment: [String: String]) throws(ConfigError) -> ConfigFile? {
        guard let path = ConfigFile.location(environment: environment) else { return nil }
        return try ConfigFile.load(path: path)
    }

    /// The defaults for `arguments` (already parsed): reads the file and picks the section of the camera used.
    static func resolve(
        for arguments: ParsedArguments, environment: [String: String]
    ) async throws(ConfigError) -> ConfigDefaults {
        guard let file = try loadFile(environment: environment) else { return ConfigDefaults(file: nil, section: nil) }
        guard !file.sections.isEmpty else { return ConfigDefaults(file: file, section: nil) }
        let camera =
            arguments.string("camera") ?? file.entry("camera", section: nil)?.value
            ?? CameraAddressStore(environment: environment).loadStored()
        let names = await cameraNames(camera, stateDirectory: arguments.string("state-dir"), environment: environment)
        return ConfigDefaults(file: file, section: file.sections.first { names.contains($0) })
    }

    /// The names a section may give the camera `camera`: the text itself, its host with and without the port,
    /// and the model and serial number that earlier shoots at that address recorded in their journals.
    static func cameraNames(
        _ camera: String?, stateDirectory: String?, environment: [String: String]
    ) async -> Set<String> {
        guard let camera else { return [] }
        var addresses: Set<String> = [camera]
        if let address = CameraAddress(parsing: camera), camera != CameraTarget.simulatorAddress {
            addresses.formUnion([address.host, address.description])
        } else if let (address, _) = SSHConnection.parseStored(camera) {
            // A remembered camera behind SSH: its section may name its host (or host:port) as for plain PTP/IP.
            addresses.formUnion([address.host, address.description])
        }
        var names = addresses
        guard let directory = try? JournalStore.resolveDirectory(option: stateDirectory, environment: environment),
            let listings = try? await JournalStore(directory: directory).list()
        else { return names }
        for case .journal(let journal) in listings where addresses.contains(journal.camera.address) {
            names.insert(journal.camera.model)
            if let serial = journal.camera.serialNumber { names.insert(serial) }
        }
        return names
    }

    /// The file's entry for `key` that applies: the section's, else the top's.
    func entry(_ key: String) -> ConfigFile.Entry? {
        if let section, let entry = file?.entry(key, section: section) { return entry }
        return file?.entry(key, section: nil)
    }

    /// `arguments` with every option `command` takes and the command line left out filled in from the file.
    ///
    /// `output` names the folder that holds shoots, so `run` gets `--output <root>/hdrshoot-<date>-<time>`.
    func applied(to arguments: ParsedArguments, command: CommandSpec, now: Date = Date()) -> ParsedArguments {
        var result = arguments
        for key in ConfigKey.all where !key.excludedCommands.contains(command.name) {
            guard command.option(named: key.option) != nil, !given(key, in: arguments),
                let entry = entry(key.name)
            else { continue }
            if key.isFlag {
                let on = (try? ConfigKey.boolean(entry.value)) == true
                if on {
                    result.set(flag: key.option)
                    result.fromConfig.insert(key.option)
                } else if key.name == "ssh", let negation = key.negation {
                    // `ssh = no` for a camera is `--no-ssh`: plain PTP/IP whatever its description says.
                    result.set(flag: negation)
                    result.fromConfig.insert(negation)
                }
            } else if key.name == "output" {
                guard let root = try? ConfigKey.outputRoot(entry.value, home: nil) else { continue }
                result.set(key.option, to: root + "/" + RunCommand.defaultOutputName(at: now))
            } else {
                result.set(key.option, to: entry.value)
                result.fromConfig.insert(key.option)
            }
        }
        return result
    }

    /// Every key's effective value for `arguments` (the `config` command's own flags).
    func effective(_ arguments: ParsedArguments) -> [Effective] {
        ConfigKey.all.map { key in
            if given(key, in: arguments) {
                let value =
                    key.isFlag ? (arguments.flag(key.option) ? "yes" : "no") : arguments.string(key.option) ?? ""
                return Effective(key: key.name, value: value, source: .flag)
            }
            if let entry = entry(key.name) {
                return Effective(
                    key: key.name, value: entry.value, source: .file(path: file?.path ?? "", line: entry.line))
            }
            return Effective(key: key.name, value: key.builtIn, source: .builtIn)
        }
    }

    /// Whether the command line set `key`: its option, or for a flag its negation (`--no-dedupe`).
    private func given(_ key: ConfigKey, in arguments: ParsedArguments) -> Bool {
        guard key.isFlag else { return arguments.string(key.option) != nil }
        return arguments.flag(key.option) || key.negation.map(arguments.flag) == true
    }

    /// Whether `command` takes any option the file can give a default of (only those commands read it).
    static func isRead(by command: CommandSpec) -> Bool {
        ConfigKey.all.contains { key in
            !key.excludedCommands.contains(command.name) && command.option(named: key.option) != nil
        }
    }
}
