import Exposure
import Shooting

extension BracketPlan {
    /// Each set's bracket as positions of the plan: its own frames, plus (with `--dedupe`) the frame it shares
    /// with a neighbour, which was shot once, in the set shot first. Fast-first: set k's bracket starts with set
    /// k-1's last frame. Slow-first (the whole sequence reversed): set k's bracket ends with set k+1's first frame.
    package func brackets(recipe: ShootRecipe?) -> [[ShootPosition]] {
        var result = sets.enumerated().map { index, speeds in
            speeds.indices.map { ShootPosition(set: index + 1, frame: $0 + 1) }
        }
        guard let recipe, recipe.dedupe, sets.count > 1 else { return result }
        if recipe.order == BracketOrder.slowFirst.rawValue {
            for index in 0..<(sets.count - 1) where !sets[index + 1].isEmpty {
                result[index].append(ShootPosition(set: index + 2, frame: 1))
            }
        } else {
            for index in 1..<sets.count where !sets[index - 1].isEmpty {
                result[index].insert(ShootPosition(set: index, frame: sets[index - 1].count), at: 0)
            }
        }
        return result
    }
}
