//! The player's rating over their first tries, as one SVG path for a small chart.

use super::record::HistoryPoint;
use std::fmt::Write;

/// A path to draw in a `width` x `height` box, with the ratings its bottom and top stand
/// for (to label the axis) and the last rating.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryChart {
    /// `M x y L x y ...`, empty for no history.
    pub path: String,
    pub low: f64,
    pub high: f64,
    pub last: Option<f64>,
}

/// Keeps the line off the box's top and bottom edges, where a stroke would be cut in half.
const MARGIN: f64 = 0.05;

/// The history spread evenly over the width, the lowest rating near the bottom and the
/// highest near the top. A flat history, or a single point, is a level line across the
/// middle, as there is no rise to show.
pub fn history_chart(history: &[HistoryPoint], width: f64, height: f64) -> HistoryChart {
    let ratings: Vec<f64> = history.iter().map(|p| p.rating).collect();
    let Some(&last) = ratings.last() else {
        return HistoryChart {
            path: String::new(),
            low: 0.0,
            high: 0.0,
            last: None,
        };
    };
    let low = ratings.iter().copied().fold(f64::INFINITY, f64::min);
    let high = ratings.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let pad = height * MARGIN;
    let y = |rating: f64| {
        if high - low > f64::EPSILON * high.abs().max(1.0) {
            pad + (high - rating) / (high - low) * (height - 2.0 * pad)
        } else {
            height / 2.0
        }
    };
    let points: Vec<(f64, f64)> = if ratings.len() == 1 {
        vec![(0.0, y(last)), (width, y(last))]
    } else {
        let step = width / (ratings.len() - 1) as f64;
        ratings
            .iter()
            .enumerate()
            .map(|(i, &r)| (i as f64 * step, y(r)))
            .collect()
    };
    let mut path = String::new();
    for (i, (x, y)) in points.iter().enumerate() {
        let command = if i == 0 { "M" } else { " L" };
        // Writing to a String cannot fail.
        let _ = write!(path, "{command} {x:.1} {y:.1}");
    }
    HistoryChart {
        path,
        low,
        high,
        last: Some(last),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn history(ratings: &[f64]) -> Vec<HistoryPoint> {
        ratings
            .iter()
            .zip(1..)
            .map(|(&rating, tries)| HistoryPoint { tries, rating })
            .collect()
    }

    /// The path's points, read back.
    fn points(path: &str) -> Vec<(f64, f64)> {
        let numbers: Vec<f64> = path
            .split_whitespace()
            .filter(|w| *w != "M" && *w != "L")
            .map(|w| w.parse().expect("a number"))
            .collect();
        numbers.chunks(2).map(|xy| (xy[0], xy[1])).collect()
    }

    #[test]
    fn points_fill_the_box_and_higher_is_up() {
        let chart = history_chart(&history(&[1500.0, 1580.0, 1450.0, 1620.0]), 200.0, 60.0);
        assert!(chart.path.starts_with("M 0.0 "), "{}", chart.path);
        let pts = points(&chart.path);
        assert_eq!(pts.len(), 4);
        assert!(pts
            .iter()
            .all(|&(x, y)| (0.0..=200.0).contains(&x) && (0.0..=60.0).contains(&y)));
        assert_eq!(pts[0].0, 0.0);
        assert_eq!(pts[3].0, 200.0);
        assert!(pts[1].1 < pts[0].1 && pts[2].1 > pts[0].1);
        // The highest is near the top and the lowest near the bottom, off the edges.
        assert!(pts[3].1 > 0.0 && pts[3].1 < 6.0);
        assert!(pts[2].1 < 60.0 && pts[2].1 > 54.0);
        assert_eq!(
            (chart.low, chart.high, chart.last),
            (1450.0, 1620.0, Some(1620.0))
        );
    }

    #[test]
    fn numbers_have_one_decimal() {
        let chart = history_chart(&history(&[1500.0, 1512.345, 1490.0]), 100.0, 33.0);
        for word in chart
            .path
            .split_whitespace()
            .filter(|w| *w != "M" && *w != "L")
        {
            let (_, decimals) = word.split_once('.').expect("a decimal point");
            assert_eq!(decimals.len(), 1, "{}", chart.path);
        }
    }

    #[test]
    fn a_flat_history_is_a_level_line_in_the_middle() {
        let chart = history_chart(&history(&[1500.0, 1500.0, 1500.0]), 90.0, 40.0);
        assert_eq!(chart.path, "M 0.0 20.0 L 45.0 20.0 L 90.0 20.0");
        assert_eq!((chart.low, chart.high), (1500.0, 1500.0));
    }

    #[test]
    fn a_single_point_is_a_level_line_across() {
        let chart = history_chart(&history(&[1432.0]), 90.0, 40.0);
        assert_eq!(chart.path, "M 0.0 20.0 L 90.0 20.0");
        assert_eq!(chart.last, Some(1432.0));
    }

    #[test]
    fn no_history_draws_nothing() {
        let chart = history_chart(&[], 90.0, 40.0);
        assert!(chart.path.is_empty());
        assert_eq!(chart.last, None);
    }
}
