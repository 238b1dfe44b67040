/// `hdrshoot man`: prints the manual page (`hdrshoot.1`, roff), generated from the option declarations.
enum ManCommand {
    /// The command's declaration.
    static let spec = CommandSpec(
        name: "man",
        abstract: "Print the manual page (roff) for installing as hdrshoot.1.",
        discussion: """
            Read it with: hdrshoot man > hdrshoot.1 && man -l hdrshoot.1. 'make install' installs it to
            $(PREFIX)/share/man/man1.
            """,
        options: [],
        run: { _, context in
            context.output.writeOut(ManPage.page(commands: HDRShoot.commands))
            return .success
        }
    )
}
