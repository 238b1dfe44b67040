import Glibc

/// The room left on the device that holds a folder, and a test's stand-in for it.
///
/// In the field `current` is nil: writes go to the device, and `available(near:)` asks statvfs(3). The
/// deterministic simulation (Tests/SimulationTests, docs/simulation.md) binds a simulated disk for a process life:
/// `FileDescriptor.writeAll` then writes only the bytes it grants and fails the rest with `ENOSPC`, as write(2) does
/// on a full device, and `available(near:)` reports its free bytes. Like `TaskPlacement`, it reaches blocking file
/// work only where that runs inline (inside a world).
package enum FileSpace {
    /// A simulated device: how many bytes a write may add, and how many are free.
    package protocol Device: Sendable {
        /// How many of `count` bytes about to be written fit (fewer: the write fails there with `ENOSPC`).
        func grant(_ count: Int) -> Int
        /// The bytes free now.
        func freeBytes() -> Int
    }

    /// The simulated device bound by a test; nil in the field.
    @TaskLocal package static var current: (any Device)?

    /// The bytes an unprivileged writer may still add to the device holding `path` (statvfs(3): `f_bavail` blocks
    /// of `f_frsize`), or the nearest existing folder above it when `path` does not exist yet; nil when not even
    /// `/` answers.
    package static func available(near path: String) -> Int? {
        if let device = current { return device.freeBytes() }
        var candidate = path.isEmpty ? "." : path
        while true {
            var info = statvfs()
            if statvfs(candidate, &info) == 0 { return Int(clamping: UInt64(info.f_bavail) &* UInt64(info.f_frsize)) }
            guard candidate != "/", candidate != "." else { return nil }
            candidate = FileSystem.parentFolder(of: candidate)
        }
    }
}
