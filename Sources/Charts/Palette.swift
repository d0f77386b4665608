/// Series colours: Okabe and Ito's palette for colour-blind readers, then two greys; it repeats past ten.
enum Palette {
    static let colours = [
        "#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000", "#999999",
        "#5E3C99",
    ]

    static func colour(_ series: Int) -> String {
        colours[series % colours.count]
    }
}
