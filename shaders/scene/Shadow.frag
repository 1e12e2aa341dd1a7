// Shadow.frag: empty fragment stage of the depth-only passes (depth comes from rasterisation).
void main()
{
}
