"""What the two networks take and give, without torch: the data code and the networks agree on these.

The same facts travel inside each exported ONNX file as metadata (`vision.reader` reads them there).
"""

#: Output stride of the detector's heat map.
STRIDE = 4
#: Output stride of the count's search network (`search.onnx`): it sees the photo enlarged,
#: so its dice are large enough for cells twice as coarse, at about half the cost.
SEARCH_STRIDE = 8
#: Long side of the photo as the detector's first look sees it (vision.reader reads this from the file).
INPUT_SIDE = 512
#: Face reader input side (pixels) and its classes: values 1-6, then "not a die".
READER_SIZE = 48
NOT_A_DIE = 6
