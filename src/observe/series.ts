import type { Registry } from 'prom-client';

/*
 * Counters and histograms for the metrics counted on every request and render, kept in plain fields and
 * handed to prom-client's registry only when it is scraped, in the shape prom-client's own metrics give it
 * (get(): name, help, type and the samples). prom-client's labels() and inc()/observe() build and check
 * label objects and a hash on every call; on the plain render that garbage, collected on the main thread
 * and V8's helper threads, was most of what the metrics cost (bench/README.md, "Metrics and JSON logs").
 * Here a call finds its series by one Map lookup and adds to numbers. The registry, the exposition format,
 * the gauges and the default metrics stay prom-client's.
 */

type Labels = Record<string, string>;

/** One sample as prom-client's registry formats it: `metricName` (the metric's own when absent), labels, value. */
interface Sample {
  metricName?: string;
  labels: Record<string, string | number>;
  value: number;
}

/** One metric's series by their label values, each made on first use and kept (label values are bounded). */
abstract class Family<S extends { labels: Labels }> {
  private readonly series = new Map<string, S>();
  readonly aggregator = 'sum';
  abstract readonly type: 'counter' | 'histogram';

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly string[],
    registry: Registry,
  ) {
    // The registry reads name, help, type and get(), and calls reset(): what a metric of its own offers.
    registry.registerMetric(this as never);
  }

  /** The series of these label values, in the order of the label names. */
  labels(...values: string[]): S {
    const key = values.length === 1 ? values[0]! : values.join('\u0000');
    let found = this.series.get(key);
    if (found === undefined) {
      if (values.length !== this.labelNames.length)
        throw new Error(`${this.name} has the labels ${this.labelNames.join(', ')}, not ${values.length} values`);
      const labels: Labels = {};
      for (const [i, name] of this.labelNames.entries()) labels[name] = values[i]!;
      found = this.make(labels);
      this.series.set(key, found);
    }
    return found;
  }

  reset(): void {
    this.series.clear();
  }

  get(): { name: string; help: string; type: string; aggregator: string; values: Sample[] } {
    // As prom-client shows a metric without labels at 0 before its first use.
    if (this.labelNames.length === 0) this.labels();
    const values: Sample[] = [];
    for (const s of this.series.values()) this.samples(s, values);
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  protected abstract make(labels: Labels): S;
  protected abstract samples(series: S, into: Sample[]): void;
}

export class CounterSeries {
  value = 0;
  constructor(readonly labels: Labels) {}
  inc(by = 1): void {
    this.value += by;
  }
}

export class CounterFamily extends Family<CounterSeries> {
  readonly type = 'counter';
  protected make(labels: Labels): CounterSeries {
    return new CounterSeries(labels);
  }
  protected samples(s: CounterSeries, into: Sample[]): void {
    into.push({ labels: s.labels, value: s.value });
  }
}

export class HistogramSeries {
  /** Observations per bucket, not yet cumulative: [i] those ≤ bounds[i] and > bounds[i - 1]. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;
  constructor(
    readonly labels: Labels,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length);
  }
  observe(value: number): void {
    if (!Number.isFinite(value)) throw new TypeError(`not a number to observe: ${value}`);
    const { bounds } = this;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]!) {
        this.counts[i]!++;
        break;
      }
    }
    this.sum += value;
    this.count++;
  }
}

export class HistogramFamily extends Family<HistogramSeries> {
  readonly type = 'histogram';
  constructor(
    name: string,
    help: string,
    labelNames: readonly string[],
    private readonly bounds: readonly number[],
    registry: Registry,
  ) {
    super(name, help, labelNames, registry);
  }
  protected make(labels: Labels): HistogramSeries {
    return new HistogramSeries(labels, this.bounds);
  }
  protected samples(s: HistogramSeries, into: Sample[]): void {
    let below = 0;
    for (const [i, le] of this.bounds.entries()) {
      below += s.counts[i]!;
      into.push({ metricName: `${this.name}_bucket`, labels: { ...s.labels, le }, value: below });
    }
    into.push({ metricName: `${this.name}_bucket`, labels: { ...s.labels, le: '+Inf' }, value: s.count });
    into.push({ metricName: `${this.name}_sum`, labels: s.labels, value: s.sum });
    into.push({ metricName: `${this.name}_count`, labels: s.labels, value: s.count });
  }
}
