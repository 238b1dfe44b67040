/// `hdrshoot man`: prints the manual page (`hdrshoot.1`, roff), generated from the option declarations; with the
/// hidden `--markdown PAGE` it prints a page of the Markdown command reference instead (`make reference`).
enum ManCommand {
    /// The command's declaration.
    static let spec = CommandSpec(
        name: "man",
        abstract: "Print the manual page (roff) for installing as hdrshoot.1.",
        discussion: """
            Read it with: hdrshoot man > hdrshoot.1 && man -l hdrshoot.1. 'make install' installs it to
            $(PREFIX)/share/man/man1.
            """,
        options: [
            .value(
                "markdown", placeholder: "<page>",
                help: "Print one page of docs/commands/ (a name --markdown-pages lists) in Markdown.", hidden: true),
            OptionSpec(
                name: "markdown-pages", kind: .flag, help: "List the pages of docs/commands/, one name a line.",
                defaultDescription: nil, isRequired: false, isHidden: true)
        ],
        run: { arguments, context in
            let commands = HDRShoot.commands
            if arguments.flag("markdown-pages") {
                context.output.writeOut(CommandReference.pageNames(commands: commands).map { $0 + "\n" }.joined())
            } else if let name = arguments.string("markdown") {
                guard let page = CommandReference.page(named: name, commands: commands) else {
                    let names = CommandReference.pageNames(commands: commands).joined(separator: ", ")
                    throw UsageError("no reference page '\(name)'; use one of \(names)", command: "man")
                }
                context.output.writeOut(page)
            } else {
                context.output.writeOut(ManPage.page(commands: commands))
            }
            return .success
        }
    )
}
