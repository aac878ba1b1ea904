"""Links between hosts in web archives, with PySpark and tagstream (in the manner of cc-pyspark).

Input: a text file of WARC paths (local paths or any path every executor can open), one per line.
Each Spark partition runs tagstream over its WARC files, in Rust with the GIL released: every
HTML response record's links, resolved as a browser resolves them (the record's URI, <base href>,
the document's encoding). Output: for each (source host, target host), the number of links, as
CSV or Parquet.

    spark-submit --master yarn python/examples/spark_host_links.py warc-paths.txt out/ --format parquet
    python python/examples/spark_host_links.py warc-paths.txt out/ --master 'local[2]'

Records tagstream cannot read (a broken gzip member, a malformed record) are counted and reported
at the end, as the CLI reports them; they never fail the job. Links without a host (mailto:,
data:, javascript:, relative links of a record without a URI) are left out.
"""

from __future__ import annotations

import argparse
import sys
from operator import add
from urllib.parse import urlsplit

from pyspark.sql import SparkSession

import tagstream.warc


def host(url: str | None) -> str | None:
    """The host of an absolute URL, lowercase; `None` when it has none."""
    if not url:
        return None
    try:
        return urlsplit(url).hostname or None
    except ValueError:
        return None


def host_pairs(paths, skipped):
    """(source host, target host) for every link of every HTML record of the WARC files."""
    for path in paths:
        pages = tagstream.warc.links(path)
        skipped.add(len(pages.skipped))
        for _offset, uri, links in pages:
            source = host(uri)
            if source is None:
                continue
            for link in links:
                target = host(link.resolved)
                if target is not None:
                    yield (source, target)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input", help="a text file of WARC paths, one per line")
    parser.add_argument("output", help="the folder to write the counts into")
    parser.add_argument("--format", choices=["csv", "parquet"], default="csv")
    parser.add_argument("--master", help="Spark master (default: what spark-submit gives)")
    parser.add_argument("--partitions", type=int, help="partitions of the path list")
    args = parser.parse_args(argv)

    builder = SparkSession.builder.appName("tagstream host links")
    if args.master:
        builder = builder.master(args.master)
    spark = builder.getOrCreate()
    sc = spark.sparkContext
    skipped = sc.accumulator(0)

    paths = sc.textFile(args.input, minPartitions=args.partitions or sc.defaultParallelism)
    paths = paths.map(str.strip).filter(bool)
    counts = (
        paths.mapPartitions(lambda part: host_pairs(part, skipped))
        .map(lambda pair: (pair, 1))
        .reduceByKey(add)
        .map(lambda kv: (kv[0][0], kv[0][1], kv[1]))
    )
    frame = spark.createDataFrame(counts, "source_host string, target_host string, links long")
    writer = frame.orderBy("source_host", "target_host").write.mode("overwrite")
    if args.format == "parquet":
        writer.parquet(args.output)
    else:
        writer.option("header", True).csv(args.output)
    print(f"records skipped (unreadable): {skipped.value}", file=sys.stderr)
    spark.stop()


if __name__ == "__main__":
    main()
