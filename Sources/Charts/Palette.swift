/// Series colours: Okabe and Ito's palette for colour-blind readers (less its black), then four of Paul
/// Tol's; no grey, which the legend keeps for baseline bars. It repeats past eleven.
enum Palette {
    static let colours = [
        "#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#882255", "#44AA99",
        "#332288", "#999933",
    ]

    static func colour(_ series: Int) -> String {
        colours[series % colours.count]
    }
}
