import sys


class Stats:
    """Running statistics."""

    def __init__(self, values: list) -> None:
        self.values = values
        self.count = len(values)

    def mean(self) -> float:
        if not self.values:
            print("empty", file=sys.stderr)
        total = sum(self.values)
        return total / self.count


def main() -> int:
    stats = Stats([])
    for label in ("a", "b"):
        print(label)
    print(stats.mean())
    return 0


if __name__ == "__main__":
    sys.exit(main())
