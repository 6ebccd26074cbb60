//! `citestore man`: write man pages, one for `citestore` and one per subcommand
//! (`citestore-sweep.1`, …), generated from the clap definition so they match `--help`.
//!
//! Every page is rendered and every target checked before the first is written, so a render
//! error or a target that must not be written (a device, a read-only page) writes nothing.

use super::Exit;
use crate::output_file::OutputFile;
use anyhow::Context as _;
use clap::CommandFactory;
use std::path::PathBuf;

/// Write a man page for citestore and each subcommand.
///
/// Write `citestore.1` and `citestore-SUBCOMMAND.1` for every subcommand into `--out` (created
/// when missing), and print each file written, e.g. `citestore man --out ~/.local/share/man/man1`.
/// No `--json`: its output is man pages, not data.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// The folder to write the pages into.
    #[arg(long, value_name = "DIR", default_value = ".")]
    out: PathBuf,
}

pub(super) fn run(args: Args) -> anyhow::Result<Exit> {
    let pages = pages()?;
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("--out {}: cannot create the folder", args.out.display()))?;
    // Every target checked before the first is written: a device or a read-only page among them
    // refuses the whole run with nothing written.
    let targets = pages
        .iter()
        .map(|(name, _)| OutputFile::check(&args.out.join(name)).map(|t| (args.out.join(name), t)))
        .collect::<Result<Vec<_>, _>>()?;
    for ((path, target), (_, bytes)) in targets.iter().zip(&pages) {
        target.write(bytes)?;
        println!("{}", path.display());
    }
    Ok(Exit::Ok)
}

/// Every page as `(file name, roff)`: the top-level one first, then one per subcommand.
fn pages() -> anyhow::Result<Vec<(String, Vec<u8>)>> {
    let mut top = super::Cli::command();
    // Built, so global flags (--db, --config) show on each subcommand's page too.
    top.build();
    let mut pages = vec![("citestore.1".to_string(), render(top.clone())?)];
    for sub in top.get_subcommands().filter(|s| s.get_name() != "help") {
        let name = format!("citestore-{}", sub.get_name());
        let page = render(
            sub.clone()
                .display_name(name.clone())
                .bin_name(name.clone()),
        )?;
        pages.push((format!("{name}.1"), page));
    }
    Ok(pages)
}

fn render(cmd: clap::Command) -> anyhow::Result<Vec<u8>> {
    let mut out = Vec::new();
    clap_mangen::Man::new(cmd)
        .source(format!("citestore {}", env!("CARGO_PKG_VERSION")))
        .render(&mut out)
        .context("rendering a man page")?;
    Ok(out)
}
