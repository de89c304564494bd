"""``briscasim validate SPEC``."""
import click

from . import HELP_OPTIONS


@click.command(context_settings=HELP_OPTIONS)
@click.argument("spec_file", metavar="SPEC", type=click.Path(dir_okay=False))
def validate(spec_file):
    """Check an experiment spec and list the cells it expands to (docs/specs.md)."""
    from ..experiments.spec import load_spec, n_chunks

    spec = load_spec(spec_file)
    resolved = spec.resolved()
    amount = (f"{spec.deals:,} deals per seating" if spec.deals is not None else
              f"until the 95% CI half-width of every win rate is below "
              f"{spec.target['ci_half_width']} (at most {spec.target['max_deals']:,} deals "
              "per seating)")
    click.echo(f"{spec.name}: {len(spec.cells)} cells, seed {spec.seed}, {amount}, "
               f"chunks of {spec.chunk:,} deals")
    if spec.description:
        click.echo(f"  {spec.description}")
    for cell, rc in zip(spec.cells, resolved["cells"]):
        how = (f"duplicate x{cell.rotations}" if cell.rotations > 1 else
               f"{cell.blocks} seatings" if cell.blocks > 1 else "fixed seats")
        click.echo(f"  cell {cell.id}: {cell.label}")
        click.echo(f"      rules: {cell.rules.name}")
        click.echo(f"      lineup: {' | '.join(cell.labels)}  ({how}, "
                   f"{n_chunks(resolved, rc)} chunks)")
    click.echo("ok")
