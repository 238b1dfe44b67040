// The Posix layer: the one place that calls the C library (Glibc) for system calls, in the spirit of
// apple/swift-system. Each call is wrapped once: `errno` is read at once into a typed `Errno`, `EINTR`
// is retried (`retryingInterrupts`), and callers above never touch `errno`.
//
// - Errno.swift: `Errno`, `retryingInterrupts`, `systemCall`
// - FileDescriptor.swift, FileSystem.swift: file writes (open, write-all, fsync of a file and its folder,
//   rename, link, flock) for the journal and the images
// - FileSystem+Replace.swift: `FileSystem.replace`, the one durable atomic replacement of a whole file (the
//   journal, the manifests, merge.sh, the remembered camera, the config template, the focus record)
// - UserDirectory.swift: the one XDG Base Directory resolver (config and state folders)
// - Socket.swift, Socket+IO.swift, SocketAddress.swift: non-blocking TCP sockets and addresses
// - IOEventLoop.swift: the poll(2) thread that sockets park on, `SocketFailure`, `IOInterest`
// - CurrentProcess.swift: this process's id and its host's name
// - NumericAddress.swift: numeric IPv4/IPv6 text to and from network-order bytes (netlink carries bytes)
// - Blocking.swift: `runBlocking`, the one bridge from a blocking call to async code, and `runOnOwnThread`
//   for work that changes its thread (setns(2) in tests)
// - TaskPlacement.swift: where hdrshoot's own tasks and blocking work run (nil in the field; inside the deterministic
//   simulation the world's one thread, so a seed replays exactly; in lockstep tests an executor the test watches)
// - SocketAddress+Resolve.swift: the one resolver (getaddrinfo through runBlocking)
// - Socket+UDP.swift: UDP datagrams and multicast on `Socket`, `HostInterfaceAddress` (getifaddrs)
// - NetlinkSocket.swift: AF_NETLINK sockets on the same loop (the network monitor)
// - TerminalMode.swift, SignalEvents.swift: the terminal (character mode, width, isatty) and signals as a stream
//
// Linux only. Nothing of ours is imported here; each layer above keeps its own error type and wraps
// `Errno` in it (`PTPIPError.systemCallFailed`, `JournalError.writeFailed`, `NetworkMonitorError.system`).
