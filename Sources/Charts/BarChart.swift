/// A bar chart as plain data, knowing nothing of where its figures come from: groups along the x axis,
/// bars within each group, and each bar made of segments stacked from the axis up. A segment belongs to a
/// series, which gives it its colour and its legend entry — so one model draws grouped bars (one segment
/// per bar, a series per tool) and stacked bars (a segment per stage) alike.
public struct BarChart: Sendable, Equatable {
    public var title: String
    /// Lines under the title (separated by newlines): how to read the chart, how the figures were taken.
    public var subtitle: String?
    /// What the y axis counts (`images/s`, `% of the time`).
    public var axisLabel: String
    /// Legend entries; a segment's `series` indexes this list.
    public var series: [String]
    public var groups: [Group]
    /// The legend's words for a baseline bar, shown when any bar is one.
    public var baselineLegend = "faded: baseline run"
    /// The top of the y axis (100 for shares); nil fits the tallest bar with room for its caption.
    public var axisMaximum: Double?
    /// Nil: wide enough for a label under each bar when there are labels, narrow otherwise.
    public var barWidth: Double?

    public init(title: String, subtitle: String? = nil, axisLabel: String, series: [String], groups: [Group])
    {
        self.title = title
        self.subtitle = subtitle
        self.axisLabel = axisLabel
        self.series = series
        self.groups = groups
    }

    public struct Group: Sendable, Equatable {
        public var label: String
        public var bars: [Bar]

        public init(label: String, bars: [Bar]) {
            self.label = label
            self.bars = bars
        }
    }

    public struct Bar: Sendable, Equatable {
        /// Written under the bar when not empty (`before`, `now`); grouped bars leave it to the legend.
        public var label: String
        public var segments: [Segment]
        /// A figure from an earlier run, drawn faded beside the current one.
        public var isBaseline: Bool
        /// Written above the bar; nil writes the total of its segments.
        public var caption: String?

        public init(label: String = "", segments: [Segment], isBaseline: Bool = false, caption: String? = nil)
        {
            self.label = label
            self.segments = segments
            self.isBaseline = isBaseline
            self.caption = caption
        }

        public var total: Double {
            segments.reduce(0) { $0 + max(0, $1.value) }
        }
    }

    public struct Segment: Sendable, Equatable {
        public var series: Int
        public var value: Double

        public init(series: Int, value: Double) {
            self.series = series
            self.value = value
        }
    }
}
