"""Othello Zero trainer: network, self-play data, training steps, ONNX export, run loop."""
