/// Where hdrshoot keeps its files under the XDG Base Directory spec: the one resolver of `XDG_CONFIG_HOME` and
/// `XDG_STATE_HOME` (the config file, the remembered camera, the host GUID, the journals, the session logs).
///
/// The spec's rules, once: a variable that is unset, empty or not an absolute path counts as unset, and the
/// fallback is under `$HOME` (`~/.config`, `~/.local/state`); with neither, there is no such folder (nil).
package enum UserDirectory: Sendable, CaseIterable {
    /// `$XDG_CONFIG_HOME/hdrshoot`, else `~/.config/hdrshoot`.
    case config
    /// `$XDG_STATE_HOME/hdrshoot`, else `~/.local/state/hdrshoot`.
    case state

    /// The XDG variable.
    package var variable: String {
        switch self {
        case .config: "XDG_CONFIG_HOME"
        case .state: "XDG_STATE_HOME"
        }
    }

    /// The spec's default under `$HOME`.
    package var homeRelative: String {
        switch self {
        case .config: ".config"
        case .state: ".local/state"
        }
    }

    /// hdrshoot's folder of this kind for `environment` (`/home/ann/.config/hdrshoot`), or with `file` a path
    /// inside it (`/home/ann/.config/hdrshoot/last-camera`); nil when neither the variable nor `HOME` is usable.
    package func path(_ file: String? = nil, environment: [String: String]) -> String? {
        let base: String
        if let xdg = environment[variable], xdg.hasPrefix("/") {
            base = xdg
        } else if let home = environment["HOME"], !home.isEmpty {
            base = (home.hasSuffix("/") ? String(home.dropLast()) : home) + "/" + homeRelative
        } else {
            return nil
        }
        let folder = (base.hasSuffix("/") ? String(base.dropLast()) : base) + "/hdrshoot"
        return file.map { folder + "/" + $0 } ?? folder
    }
}
