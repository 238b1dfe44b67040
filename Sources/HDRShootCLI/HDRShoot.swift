#if canImport(Glibc)
import Glibc
#endif

/// The `hdrshoot` command line: parses arguments, runs a command, maps errors to exit codes.
public enum HDRShoot {
    /// The tool's version, printed by `--version`.
    public static let version = "0.1.0"

    /// Runs the command named by the process arguments and exits with its status.
    public static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments == ["--version"] {
            print("hdrshoot \(version)")
            exit(0)
        }
        print("hdrshoot \(version): automated HDR bracketing (commands arrive with the planner issue)")
        exit(0)
    }
}
