"""A study on Ray: every Hat diviyan keliya ruleset, many seeded random games each, and the hunter's win
rate with its 95% interval, plotted with matplotlib.

    python python/examples/hat_variants.py --games 1000000 --shards 64 --out hat-variants.png
    python python/examples/hat_variants.py --address auto ...   # join a running Ray cluster
"""

import argparse

import matplotlib

matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt
import ray

import keliya
import keliya.ray


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--games", type=int, default=1_000_000)
    args.add_argument("--shards", type=int, default=64)
    args.add_argument("--seed", type=int, default=1)
    args.add_argument("--address", default=None, help="a Ray cluster to join; a local one without it")
    args.add_argument("--out", default="hat-variants.png")
    a = args.parse_args()

    ray.init(address=a.address, include_dashboard=False, log_to_driver=False)
    names = [n for n in keliya.games() if n.startswith("hat-diviyan-keliya")]
    rates = []
    for name in names:
        stats = keliya.ray.simulate(name, games=a.games, seed=a.seed, shards=a.shards)
        rate = stats["win_rates"]["hunter"]
        rates.append(rate)
        print(f"{name:<32} hunter wins {100 * rate['rate']:5.1f}% of {stats['games']} games")
    ray.shutdown()

    values = [r["rate"] for r in rates]
    errors = [[r["rate"] - r["ci95"][0] for r in rates], [r["ci95"][1] - r["rate"] for r in rates]]
    fig, ax = plt.subplots(figsize=(7, 0.6 * len(names) + 1.2))
    ax.barh(names, values, xerr=errors, color="#b5542d")
    ax.set_xlim(0, 1)
    ax.set_xlabel(f"hunter win rate, random play, {a.games:,} games each (95% interval)")
    fig.tight_layout()
    fig.savefig(a.out, dpi=120)
    print("wrote", a.out)


if __name__ == "__main__":
    main()
