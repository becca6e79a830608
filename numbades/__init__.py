"""numbades: DES and Triple-DES for NumPy arrays, compiled by Numba."""
