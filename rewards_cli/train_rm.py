"""`rewards train-rm --pairs PREFS.jsonl --base MODEL --out DIR`: train a discriminative reward
model with the Bradley-Terry loss -log sigmoid(r_chosen - r_rejected - margin) on preference
pairs {"prompt", "chosen", "rejected", "margin"?}, hold out an eval split and report its
accuracy, and save a Hugging Face checkpoint that transformers and vLLM (pooling) load."""

from __future__ import annotations

import argparse
import json
from typing import Any


def add_parser(sub: Any) -> None:
    p = sub.add_parser("train-rm", help="train a reward model on preference pairs (Bradley-Terry)",
                       description=__doc__)
    p.add_argument("--pairs", required=True, help="preference pairs, JSONL or Parquet")
    p.add_argument("--base", required=True,
                   help="model folder to start from (a causal LM or a reward model)")
    p.add_argument("--out", required=True, help="output folder (HF format)")
    p.add_argument("--epochs", type=int, default=3, help="passes over the pairs (default: 3)")
    p.add_argument("--batch-size", type=int, default=8, help="pairs per step (default: 8)")
    p.add_argument("--lr", type=float, default=1e-3,
                   help="AdamW learning rate (default: 1e-3, for small models)")
    p.add_argument("--weight-decay", type=float, default=0.0, help="AdamW weight decay")
    p.add_argument("--margin", type=float, default=0.0,
                   help="margin for pairs without their own 'margin' field (default: 0)")
    p.add_argument("--eval-fraction", type=float, default=0.2,
                   help="share of pairs held out for evaluation (default: 0.2)")
    p.add_argument("--max-length", type=int, default=1024, help="longest input in tokens")
    p.add_argument("--seed", type=int, default=0, help="shuffle, split and head init seed")
    p.add_argument("--save-every-epoch", action="store_true",
                   help="also save out/checkpoints/epoch-N after each epoch")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from genrm.train import TrainConfig, load_pairs, train_reward_model
    from rewards.engines import resolve_model
    from rewards.paths import input_file, output_dir

    output_dir(args.out, field="--out")
    base = resolve_model(args.base, field="--base")
    pairs = load_pairs(input_file(args.pairs, field="--pairs"))
    config = TrainConfig(epochs=args.epochs, batch_size=args.batch_size, lr=args.lr,
                         weight_decay=args.weight_decay, margin=args.margin,
                         eval_fraction=args.eval_fraction, max_length=args.max_length,
                         seed=args.seed, save_every_epoch=args.save_every_epoch)
    result = train_reward_model(pairs, base, args.out, config)
    summary = {"out": str(result.out_dir), "train_pairs": result.train_pairs,
               "eval_pairs": result.eval_pairs, "eval_accuracy": result.eval_accuracy,
               "eval_loss": result.eval_loss}
    print(json.dumps(summary))
    return 0
